import { type NewSecurityEvent, type SecurityEventOutcome, type SecurityEventRecord, securityEventFromRow } from '@sessauth/core/store';
import type { Kysely } from 'kysely';
import type { SecurityEventDb } from './schema.js';
import type { StoreContext } from './store-context.js';

/*
 * The Shared Signals outbox on SQL (docs/shared-signals.md). Each operation is one statement,
 * or, for the claim, one conditional UPDATE per row (a compare-and-swap on the row's due time
 * and state): portable to every engine, and two instances claiming at once never both win a
 * row. The writes around a revocation are separate statements from the revocation itself:
 * the rows are held before it and released after it, and the dispatcher recovers a batch
 * whose release never came.
 */

function outboxDb(ctx: StoreContext): Kysely<SecurityEventDb> {
  return ctx.db as unknown as Kysely<SecurityEventDb>;
}

export async function holdSecurityEvents(ctx: StoreContext, events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => ({
    id: event.id,
    batch_id: event.batchId,
    stream_id: event.streamId,
    token: event.token,
    user_id: event.userId,
    session_id: event.sessionId,
    state: 'held',
    attempts: 0,
    next_attempt_at: recoverAfter.getTime(),
    created_at: event.createdAt.getTime(),
    last_error: null,
  }));
  // One multi-row INSERT: all rows or none. A row already stored (a retried call) is kept as it is.
  const insert = outboxDb(ctx).insertInto(ctx.names.securityEvent).values(rows);
  await (ctx.dialect.name === 'mysql' ? insert.ignore() : insert.onConflict((conflict) => conflict.column('id').doNothing())).execute();
}

export async function releaseSecurityEvents(ctx: StoreContext, batchId: string, deliver: boolean, now: Date): Promise<number> {
  const db = outboxDb(ctx);
  const t = ctx.names.securityEvent;
  const result = deliver
    ? await db
        .updateTable(t)
        .set({ state: 'ready', next_attempt_at: now.getTime() })
        .where('batch_id', '=', batchId)
        .where('state', '=', 'held')
        .executeTakeFirst()
    : await db.deleteFrom(t).where('batch_id', '=', batchId).where('state', '=', 'held').executeTakeFirst();
  return Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows);
}

export async function claimSecurityEvents(ctx: StoreContext, now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
  const db = outboxDb(ctx);
  const t = ctx.names.securityEvent;
  const due = await db
    .selectFrom(t)
    .selectAll()
    .where('state', '<>', 'dead')
    .where('next_attempt_at', '<=', now.getTime())
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const claimed: SecurityEventRecord[] = [];
  for (const row of due) {
    // The swap succeeds only while the row is as this read saw it: a concurrent claim moved its due time.
    const result = await db
      .updateTable(t)
      .set({ next_attempt_at: leaseUntil.getTime() })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .where('next_attempt_at', '=', Number(row.next_attempt_at))
      .executeTakeFirst();
    // The lease is always later than the due time read (it is after `now`), so even MySQL,
    // which counts changed rows only, counts a won swap.
    if (Number(result.numUpdatedRows) > 0) claimed.push(securityEventFromRow(row, leaseUntil));
  }
  return claimed;
}

export async function settleSecurityEvent(ctx: StoreContext, id: string, outcome: SecurityEventOutcome): Promise<void> {
  const db = outboxDb(ctx);
  const t = ctx.names.securityEvent;
  if (outcome.kind === 'remove') {
    await db.deleteFrom(t).where('id', '=', id).execute();
    return;
  }
  const changes =
    outcome.kind === 'retry'
      ? { state: 'ready', attempts: outcome.attempts, next_attempt_at: outcome.nextAttemptAt.getTime(), last_error: outcome.error.slice(0, 255) }
      : { state: 'dead', attempts: outcome.attempts, last_error: outcome.error.slice(0, 255) };
  await db.updateTable(t).set(changes).where('id', '=', id).execute();
}
