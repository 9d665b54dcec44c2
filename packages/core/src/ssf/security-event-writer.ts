import type { Clock } from '../time/clock.js';
import type { ResolvedOptions } from '../options/options.js';
import type { SsfReceiver } from '../options/ssf-receiver.js';
import type { NewSecurityEvent, SecurityEventOutbox } from '../store/security-event-outbox.js';
import { eventsClaimOf, type SecurityEventFacts, SSF_VERIFICATION_EVENT_TYPE, subjectOf } from './caep-events.js';
import { claimLeaseMilliseconds } from './delivery-timing.js';

/** Signs a SET's claims (the token service's `signSecurityEvent`). */
export type SecurityEventSigner = (claims: Readonly<Record<string, unknown>>) => Promise<string>;

/**
 * Writes SETs to the outbox around a change: `hold` before it (durable, not yet sent),
 * `release` after it (deliverable, or dropped when the change did not happen). A process that
 * dies between the two leaves held rows that the dispatcher recovers after the claim lease.
 */
export interface SecurityEventWriter {
  /** Signs and holds one SET per interested stream for each fact; the batch id, or null when no stream wants any. */
  hold(facts: readonly SecurityEventFacts[]): Promise<string | null>;
  /** The change is done (`deliver`) or did not happen; a null batch is a no-op. */
  release(batchId: string | null, deliver: boolean): Promise<void>;
  /** Hold and release at once: for a change the store already made (a reuse the refresh swap detected). */
  record(facts: readonly SecurityEventFacts[]): Promise<void>;
  /** SSF's verification event for one stream, deliverable at once; false for an unknown stream. */
  verify(streamId: string, state: string | undefined): Promise<boolean>;
}

export interface SecurityEventWriterDeps {
  readonly options: ResolvedOptions;
  readonly outbox: SecurityEventOutbox;
  readonly sign: SecurityEventSigner;
  readonly clock: Clock;
  /** Called when a batch becomes deliverable (the dispatcher pushes it without waiting for its poll). */
  readonly onReady: () => void;
}

export function createSecurityEventWriter(deps: SecurityEventWriterDeps): SecurityEventWriter {
  const { options, outbox, sign, clock, onReady } = deps;
  const issuer = options.ssfIssuer ?? options.issuer;
  const streams = options.ssfReceivers;

  async function setFor(
    stream: SsfReceiver,
    subject: Readonly<Record<string, unknown>>,
    events: Readonly<Record<string, unknown>>,
    at: Date,
    txn: string,
  ) {
    const jti = globalThis.crypto.randomUUID();
    // RFC 8417: iss, iat, jti, aud, events; SSF 1.0: sub_id, one event per SET; txn ties the
    // SETs of one change together (several sessions of one logout, one per stream).
    const token = await sign({ iss: issuer, aud: stream.audience, iat: Math.floor(at.getTime() / 1000), jti, txn, sub_id: subject, events });
    return { jti, token };
  }

  async function build(facts: readonly SecurityEventFacts[], batchId: string): Promise<NewSecurityEvent[]> {
    const rows: NewSecurityEvent[] = [];
    for (const fact of facts) {
      const sessionId = fact.event === 'session-revoked' ? fact.sessionId : null;
      const subject = subjectOf(issuer, fact.userId, sessionId);
      const events = eventsClaimOf(fact);
      for (const stream of streams) {
        if (!(stream.events ?? []).includes(fact.event)) continue;
        const { jti, token } = await setFor(stream, subject, events, fact.at, batchId);
        rows.push({ id: jti, batchId, streamId: stream.streamId, token, userId: fact.userId, sessionId, createdAt: fact.at });
      }
    }
    return rows;
  }

  async function hold(facts: readonly SecurityEventFacts[]): Promise<string | null> {
    const batchId = globalThis.crypto.randomUUID();
    const rows = await build(facts, batchId);
    if (rows.length === 0) return null;
    const now = clock.now();
    await outbox.holdSecurityEvents(rows, new Date(now.getTime() + claimLeaseMilliseconds(options)));
    return batchId;
  }

  async function release(batchId: string | null, deliver: boolean): Promise<void> {
    if (batchId === null) return;
    const changed = await outbox.releaseSecurityEvents(batchId, deliver, clock.now());
    if (deliver && changed > 0) onReady();
  }

  return {
    hold,
    release,
    async record(facts) {
      await release(await hold(facts), true);
    },
    async verify(streamId, state) {
      const stream = streams.find((candidate) => candidate.streamId === streamId);
      if (stream === undefined) return false;
      const now = clock.now();
      const batchId = globalThis.crypto.randomUUID();
      const events = { [SSF_VERIFICATION_EVENT_TYPE]: state === undefined ? {} : { state } };
      const { jti, token } = await setFor(stream, { format: 'opaque', id: stream.streamId }, events, now, batchId);
      await outbox.holdSecurityEvents([{ id: jti, batchId, streamId, token, userId: null, sessionId: null, createdAt: now }], now);
      await release(batchId, true);
      return true;
    },
  };
}
