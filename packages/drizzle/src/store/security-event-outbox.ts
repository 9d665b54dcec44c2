import type { NewSecurityEvent, SecurityEventOutcome, SecurityEventRecord, SecurityEventState } from '@sessauth/core/store';
import { and, asc, eq, lte, ne } from 'drizzle-orm';
import type { StoreContext } from './store-context.js';

/*
 * The Shared Signals outbox (the store's `securityEventOutbox` option; step
 * 0007-security-event-outbox), with the statements of @sessauth/kysely: each operation is one
 * statement, or, for the claim, one conditional UPDATE per row (a compare-and-swap on the row's
 * due time and state), so two instances claiming at once never both win a row. The writes
 * around a revocation are separate calls: held before it, released after it; the dispatcher
 * recovers a batch whose release never came.
 */

/** A row as the stores select it (`bigint` columns read back as numbers). */
interface SecurityEventRow {
  id: string;
  batchId: string;
  streamId: string;
  token: string;
  userId: string | null;
  sessionId: string | null;
  state: string;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  lastError: string | null;
}

/** The column's bound (varchar(255)): the reason is the receiver's, of any length. */
const ERROR_LENGTH = 255;

export async function holdSecurityEvents(ctx: StoreContext, events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
  if (events.length === 0) return;
  const rows: SecurityEventRow[] = events.map((event) => ({
    id: event.id,
    batchId: event.batchId,
    streamId: event.streamId,
    token: event.token,
    userId: event.userId,
    sessionId: event.sessionId,
    state: 'held',
    attempts: 0,
    nextAttemptAt: recoverAfter.getTime(),
    createdAt: event.createdAt.getTime(),
    lastError: null,
  }));
  // One multi-row INSERT: all rows or none. A row already stored (a retried call) is kept as it is.
  await ctx.engine.insertNew(ctx.engine.tables.securityEvent, rows as unknown as Array<Record<string, unknown>>);
}

export function releaseSecurityEvents(ctx: StoreContext, batchId: string, deliver: boolean, now: Date): Promise<number> {
  const { engine } = ctx;
  const o = engine.tables.securityEvent;
  const held = and(eq(o.batchId, batchId), eq(o.state, 'held'));
  return engine.changed(
    deliver ? engine.db.update(o).set({ state: 'ready', nextAttemptAt: now.getTime() }).where(held) : engine.db.delete(o).where(held),
  );
}

export async function claimSecurityEvents(ctx: StoreContext, now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
  const { engine } = ctx;
  const o = engine.tables.securityEvent;
  const due = await engine.db
    .select<SecurityEventRow>()
    .from(o)
    .where(and(ne(o.state, 'dead'), lte(o.nextAttemptAt, now.getTime())))
    .orderBy(asc(o.nextAttemptAt), asc(o.id))
    .limit(limit);
  const claimed: SecurityEventRecord[] = [];
  for (const row of due) {
    // The swap succeeds only while the row is as this read saw it: a concurrent claim moved its due time.
    const swapped = await engine.changed(
      engine.db
        .update(o)
        .set({ nextAttemptAt: leaseUntil.getTime() })
        .where(and(eq(o.id, row.id), eq(o.state, row.state), eq(o.nextAttemptAt, Number(row.nextAttemptAt)))),
    );
    // The lease is later than the due time read (it is after `now`), so even MySQL, which
    // counts changed rows only, counts a won swap.
    if (swapped > 0) claimed.push(toRecord(row, leaseUntil));
  }
  return claimed;
}

export async function settleSecurityEvent(ctx: StoreContext, id: string, outcome: SecurityEventOutcome): Promise<void> {
  const { engine } = ctx;
  const o = engine.tables.securityEvent;
  if (outcome.kind === 'remove') {
    await engine.db.delete(o).where(eq(o.id, id));
    return;
  }
  const changes =
    outcome.kind === 'retry'
      ? {
          state: 'ready',
          attempts: outcome.attempts,
          nextAttemptAt: outcome.nextAttemptAt.getTime(),
          lastError: outcome.error.slice(0, ERROR_LENGTH),
        }
      : { state: 'dead', attempts: outcome.attempts, lastError: outcome.error.slice(0, ERROR_LENGTH) };
  await engine.db.update(o).set(changes).where(eq(o.id, id));
}

function toRecord(row: SecurityEventRow, leaseUntil: Date): SecurityEventRecord {
  return {
    id: row.id,
    batchId: row.batchId,
    streamId: row.streamId,
    token: row.token,
    userId: row.userId,
    sessionId: row.sessionId,
    state: row.state as SecurityEventState,
    attempts: Number(row.attempts),
    nextAttemptAt: new Date(leaseUntil.getTime()),
    createdAt: new Date(Number(row.createdAt)),
    lastError: row.lastError,
  };
}
