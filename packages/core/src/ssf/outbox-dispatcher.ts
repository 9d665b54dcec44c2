import type { Logger } from '../log/logger.js';
import type { ResolvedOptions } from '../options/options.js';
import type { SsfReceiver } from '../options/ssf-receiver.js';
import type { SecurityEventOutbox, SecurityEventOutcome, SecurityEventRecord } from '../store/security-event-outbox.js';
import type { SessionStore } from '../store/store-port.js';
import type { Clock } from '../time/clock.js';
import { claimLeaseMilliseconds, retryDelayMilliseconds } from './delivery-timing.js';
import { pushSecurityEvent } from './push-delivery.js';

/** The delivery loop of the transmitter. */
export interface OutboxDispatcher {
  /** Push what is due now without waiting for the next poll (coalesced with a run in progress). */
  kick(): void;
  /** One pass over the outbox: claims and pushes everything due; resolves with how many rows it settled. */
  deliverDue(): Promise<number>;
  /** Stops the poll and waits for the pass in progress. Rows claimed and not settled come back after the lease. */
  stop(): Promise<void>;
}

export interface OutboxDispatcherDeps {
  readonly options: ResolvedOptions;
  readonly outbox: SecurityEventOutbox;
  /** Reads a session when recovering a held row (was the revocation it announces made?). */
  readonly store: SessionStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

const CLAIM_BATCH = 50;
const PARALLEL_PUSHES = 8;

/**
 * Claims due rows, pushes each to its stream, settles it: accepted rows are deleted, failed
 * ones retried with backoff until `ssfMaxDeliveryAttempts`, then dead-lettered (kept as
 * `dead` and logged). A `held` row is one whose writer died between the hold and the
 * release: a row about one session is sent when that session did end, dropped when it is still
 * active; other held rows are sent (a spurious revocation notice errs on the safe side).
 */
export function createOutboxDispatcher(deps: OutboxDispatcherDeps): OutboxDispatcher {
  const { options, outbox, store, clock, logger } = deps;
  const streams = new Map<string, SsfReceiver>(options.ssfReceivers.map((stream) => [stream.streamId, stream]));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;

  function schedule(delayMs: number): void {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, delayMs);
    // The poll must never keep a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  }

  async function run(): Promise<number> {
    if (running !== null) {
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = null;
      if (again) {
        again = false;
        schedule(0);
      } else schedule(options.ssfPollIntervalMilliseconds);
    });
    return running;
  }

  async function pass(): Promise<number> {
    let settled = 0;
    try {
      for (;;) {
        const now = clock.now();
        const rows = await outbox.claimSecurityEvents(now, new Date(now.getTime() + claimLeaseMilliseconds(options)), CLAIM_BATCH);
        for (let i = 0; i < rows.length; i += PARALLEL_PUSHES) {
          await Promise.all(rows.slice(i, i + PARALLEL_PUSHES).map((row) => deliver(row)));
        }
        settled += rows.length;
        if (rows.length < CLAIM_BATCH || stopped) return settled;
      }
    } catch (error) {
      // A store fault: the rows stay where they are and the next poll tries again.
      logger.warn('ssf_outbox_unavailable', { error: error instanceof Error ? error.name : 'Error' });
      return settled;
    }
  }

  async function deliver(row: SecurityEventRecord): Promise<void> {
    const stream = streams.get(row.streamId);
    if (stream === undefined) {
      // The stream was removed from the configuration: nobody to send it to.
      await settle(row, { kind: 'dead', attempts: row.attempts, error: 'unknown_stream' });
      return;
    }
    if (row.state === 'held' && !(await revocationHappened(row))) {
      logger.info?.('ssf_event_dropped', { stream: row.streamId, jti: row.id, reason: 'change_not_made' });
      await settle(row, { kind: 'remove' });
      return;
    }
    const result = await pushSecurityEvent(stream, row.token, options.ssfPushTimeoutMilliseconds);
    const attempts = row.attempts + 1;
    if (result.kind === 'accepted') {
      logger.info?.('ssf_event_delivered', { stream: row.streamId, jti: row.id, attempts });
      await settle(row, { kind: 'remove' });
      return;
    }
    if (result.kind === 'permanent' || attempts >= options.ssfMaxDeliveryAttempts) {
      logger.error('ssf_event_dead_lettered', { stream: row.streamId, jti: row.id, attempts, error: result.error });
      await settle(row, { kind: 'dead', attempts, error: result.error });
      return;
    }
    const backoff = retryDelayMilliseconds(options, attempts);
    const delay = Math.min(options.ssfRetryMaxMilliseconds, Math.max(backoff, result.retryAfterMs ?? 0));
    logger.warn('ssf_event_retry', { stream: row.streamId, jti: row.id, attempts, error: result.error, retry_in_ms: delay });
    await settle(row, { kind: 'retry', attempts, nextAttemptAt: new Date(clock.now().getTime() + delay), error: result.error });
  }

  async function revocationHappened(row: SecurityEventRecord): Promise<boolean> {
    if (row.sessionId === null) return true;
    const session = await store.findSession(row.sessionId);
    return session === null || session.expiredAt !== null || session.expiresAt.getTime() <= clock.now().getTime();
  }

  async function settle(row: SecurityEventRecord, outcome: SecurityEventOutcome): Promise<void> {
    try {
      await outbox.settleSecurityEvent(row.id, outcome);
    } catch (error) {
      // Not settled: the row comes back after its lease and is pushed again (same jti).
      logger.warn('ssf_outbox_unavailable', { error: error instanceof Error ? error.name : 'Error' });
    }
  }

  // Rows a previous process left (held, leased, due retries) go out on the first poll, not at once:
  // a receiver verifies a SET with the transmitter's keys, which the host serves only once it
  // listens, and some receivers answer a failed key fetch with a final 4xx (every event
  // dead-lettered). New events are kicked at once; they come from requests, so the host serves.
  schedule(options.ssfPollIntervalMilliseconds);
  return {
    kick: () => {
      if (!stopped) void run();
    },
    deliverDue: () => run(),
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => 0);
    },
  };
}
