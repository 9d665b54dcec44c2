import type { NewSecurityEvent, SecurityEventOutcome, SecurityEventRecord, SecurityEventState } from '@sessauth/core/store';
import type { RedisLike } from './redis-like.js';
import { runScript } from './script-runner.js';
import { SCRIPTS } from './scripts/session-scripts.js';

/**
 * The Shared Signals outbox on Redis: each operation is one Lua script on the `{ssf}` slot,
 * so atomic (see scripts/security-event-outbox.lua.ts for the keys). The rows are held before
 * a revocation and released after it, like on SQL: a revocation and its outbox rows live on
 * different slots (the user's and `{ssf}`), which no single script may touch on a cluster.
 */
export class RedisSecurityEventOutbox {
  readonly #client: RedisLike;
  readonly #base: string;
  readonly #due: string;

  constructor(client: RedisLike, prefix: string) {
    this.#client = client;
    this.#base = `${prefix}{ssf}:`;
    this.#due = `${this.#base}due`;
  }

  async hold(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
    if (events.length === 0) return;
    const args: (string | number)[] = [this.#base, recoverAfter.getTime()];
    for (const event of events) {
      args.push(event.id, event.batchId, event.streamId, event.token, event.userId ?? '', event.sessionId ?? '', event.createdAt.getTime());
    }
    await runScript(this.#client, SCRIPTS.holdSecurityEvents, [this.#due], args);
  }

  async release(batchId: string, deliver: boolean, now: Date): Promise<number> {
    return Number(
      await runScript(this.#client, SCRIPTS.releaseSecurityEvents, [this.#due], [this.#base, batchId, deliver ? '1' : '0', now.getTime()]),
    );
  }

  async claim(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
    const reply = await runScript(this.#client, SCRIPTS.claimSecurityEvents, [this.#due], [this.#base, now.getTime(), leaseUntil.getTime(), limit]);
    return (reply as string[][]).map(toRecord);
  }

  async settle(id: string, outcome: SecurityEventOutcome): Promise<void> {
    const args =
      outcome.kind === 'remove'
        ? [this.#base, id, 'remove', 0, 0, '']
        : outcome.kind === 'retry'
          ? [this.#base, id, 'retry', outcome.attempts, outcome.nextAttemptAt.getTime(), outcome.error.slice(0, 255)]
          : [this.#base, id, 'dead', outcome.attempts, 0, outcome.error.slice(0, 255)];
    await runScript(this.#client, SCRIPTS.settleSecurityEvent, [this.#due], args);
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
