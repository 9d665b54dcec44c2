import type { NewSecurityEvent, SecurityEventOutcome, SecurityEventRecord, SecurityEventState } from '@sessauth/core/store';
import { runWriteScript, type DurableWriteContext } from './durability.js';
import { SCRIPTS } from './scripts/session-scripts.js';

/**
 * The Shared Signals outbox on Redis: each operation is one Lua script on the `{ssf}` slot,
 * so atomic (see scripts/security-event-outbox.lua.ts for the keys). The rows are held before
 * a revocation and released after it, like on SQL: a revocation and its outbox rows live on
 * different slots (the user's and `{ssf}`), which no single script may touch on a cluster.
 * Every operation changes state (even a claim takes a lease), so each waits for the store's
 * `durability` like a session write: a held row lost in a failover would be a security event never
 * sent for a revocation that happened.
 */
export class RedisSecurityEventOutbox {
  readonly #ctx: DurableWriteContext;
  readonly #base: string;
  readonly #due: string;

  constructor(ctx: DurableWriteContext, prefix: string) {
    this.#ctx = ctx;
    this.#base = `${prefix}{ssf}:`;
    this.#due = `${this.#base}due`;
  }

  async hold(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
    if (events.length === 0) return;
    const args: (string | number)[] = [this.#base, recoverAfter.getTime()];
    for (const event of events) {
      args.push(event.id, event.batchId, event.streamId, event.token, event.userId ?? '', event.sessionId ?? '', event.createdAt.getTime());
    }
    await runWriteScript(this.#ctx, 'holdSecurityEvents', SCRIPTS.holdSecurityEvents, [this.#due], args);
  }

  async release(batchId: string, deliver: boolean, now: Date): Promise<number> {
    return Number(
      await runWriteScript(
        this.#ctx,
        'releaseSecurityEvents',
        SCRIPTS.releaseSecurityEvents,
        [this.#due],
        [this.#base, batchId, deliver ? '1' : '0', now.getTime()],
      ),
    );
  }

  async claim(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
    const reply = await runWriteScript(
      this.#ctx,
      'claimSecurityEvents',
      SCRIPTS.claimSecurityEvents,
      [this.#due],
      [this.#base, now.getTime(), leaseUntil.getTime(), limit],
    );
    return (reply as string[][]).map(toRecord);
  }

  async settle(id: string, outcome: SecurityEventOutcome): Promise<void> {
    const args =
      outcome.kind === 'remove'
        ? [this.#base, id, 'remove', 0, 0, '']
        : outcome.kind === 'retry'
          ? [this.#base, id, 'retry', outcome.attempts, outcome.nextAttemptAt.getTime(), outcome.error.slice(0, 255)]
          : [this.#base, id, 'dead', outcome.attempts, 0, outcome.error.slice(0, 255)];
    await runWriteScript(this.#ctx, 'settleSecurityEvent', SCRIPTS.settleSecurityEvent, [this.#due], args);
  }
}

function toRecord(reply: string[]): SecurityEventRecord {
  const [id, ...pairs] = reply;
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) hash[pairs[i]!] = pairs[i + 1]!;
  return {
    id: id!,
    batchId: hash.batchId ?? '',
    streamId: hash.streamId ?? '',
    token: hash.token ?? '',
    userId: hash.userId ?? null,
    sessionId: hash.sessionId ?? null,
    state: (hash.state ?? 'ready') as SecurityEventState,
    attempts: Number(hash.attempts ?? 0),
    nextAttemptAt: new Date(Number(hash.nextAttemptAt ?? 0)),
    createdAt: new Date(Number(hash.createdAt ?? 0)),
    lastError: hash.lastError ?? null,
  };
}
