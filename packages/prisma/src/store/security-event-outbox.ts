import {
  type NewSecurityEvent,
  type SecurityEventOutcome,
  type SecurityEventRecord,
  type SecurityEventTableRow,
  securityEventFromRow,
} from '@sessauth/core/store';
import type { ClientContext } from './store-context.js';

/*
 * The Shared Signals outbox (the store's `securityEventOutbox` option; migration
 * 0005_sessauth_security_event_outbox), with the statements of @sessauth/kysely: each operation
 * is one statement, or, for the claim, one conditional UPDATE per row (a compare-and-swap on the
 * row's due time and state), so two instances claiming at once never both win a row. The writes
 * around a revocation are separate calls: held before it, released after it; the dispatcher
 * recovers a batch whose release never came. Raw statements, like the activity history's: the
 * store needs no delegate for the table, so a client generated without the model still works.
 */

const COLUMNS = [
  'id',
  'batch_id',
  'stream_id',
  'token',
  'user_id',
  'session_id',
  'state',
  'attempts',
  'next_attempt_at',
  'created_at',
  'last_error',
] as const;

/** The column's bound (varchar(255)): the reason is the receiver's, of any length. */
const ERROR_LENGTH = 255;

/** The core's outbox row, with the column the core's mapping replaces by the lease end. */
interface RawRow extends SecurityEventTableRow {
  next_attempt_at: unknown;
}

/** `count` placeholders from `start` (1-based), comma-separated. */
function placeholders(ctx: ClientContext, start: number, count: number): string {
  return Array.from({ length: count }, (_, index) => ctx.sql.placeholder(start + index)).join(', ');
}

export async function holdSecurityEvents(ctx: ClientContext, events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
  if (events.length === 0) return;
  const { sql, names } = ctx;
  const rows = events.map((_, index) => `(${placeholders(ctx, index * COLUMNS.length + 1, COLUMNS.length)})`).join(', ');
  const values = events.flatMap((event) => [
    event.id,
    event.batchId,
    event.streamId,
    event.token,
    event.userId,
    event.sessionId,
    'held',
    0,
    BigInt(recoverAfter.getTime()),
    BigInt(event.createdAt.getTime()),
    null,
  ]);
  // One multi-row INSERT: all rows or none. A row already stored (a retried call) is kept as it is.
  await ctx.client.$executeRawUnsafe(
    `insert into ${names.securityEvent} (${COLUMNS.map(sql.quote).join(', ')}) values ${rows} ${sql.keepStoredRow}`,
    ...values,
  );
}

export async function releaseSecurityEvents(ctx: ClientContext, batchId: string, deliver: boolean, now: Date): Promise<number> {
  const { sql, names } = ctx;
  const q = sql.quote;
  const p = sql.placeholder;
  return deliver
    ? ctx.client.$executeRawUnsafe(
        `update ${names.securityEvent} set ${q('state')} = 'ready', ${q('next_attempt_at')} = ${p(1)} where ${q('batch_id')} = ${p(2)} and ${q('state')} = 'held'`,
        BigInt(now.getTime()),
        batchId,
      )
    : ctx.client.$executeRawUnsafe(`delete from ${names.securityEvent} where ${q('batch_id')} = ${p(1)} and ${q('state')} = 'held'`, batchId);
}

export async function claimSecurityEvents(ctx: ClientContext, now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
  // Written into the statement (a placeholder in LIMIT is typed differently by each driver).
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('@sessauth/prisma: the claim limit must be a positive integer');
  const { sql, names } = ctx;
  const q = sql.quote;
  const p = sql.placeholder;
  const due = await ctx.client.$queryRawUnsafe<RawRow[]>(
    `select ${COLUMNS.map(q).join(', ')} from ${names.securityEvent}
     where ${q('state')} <> 'dead' and ${q('next_attempt_at')} <= ${p(1)}
     order by ${q('next_attempt_at')}, ${q('id')} limit ${limit}`,
    BigInt(now.getTime()),
  );
  const claimed: SecurityEventRecord[] = [];
  for (const row of due) {
    // The swap succeeds only while the row is as this read saw it: a concurrent claim moved its due time.
    const swapped = await ctx.client.$executeRawUnsafe(
      `update ${names.securityEvent} set ${q('next_attempt_at')} = ${p(1)} where ${q('id')} = ${p(2)} and ${q('state')} = ${p(3)} and ${q('next_attempt_at')} = ${p(4)}`,
      BigInt(leaseUntil.getTime()),
      row.id,
      row.state,
      BigInt(Number(row.next_attempt_at)),
    );
    // The lease is later than the due time read (it is after `now`), so even an engine that
    // counts changed rows only counts a won swap.
    if (swapped > 0) claimed.push(securityEventFromRow(row, leaseUntil));
  }
  return claimed;
}

export async function settleSecurityEvent(ctx: ClientContext, id: string, outcome: SecurityEventOutcome): Promise<void> {
  const { sql, names } = ctx;
  const q = sql.quote;
  const p = sql.placeholder;
  if (outcome.kind === 'remove') {
    await ctx.client.$executeRawUnsafe(`delete from ${names.securityEvent} where ${q('id')} = ${p(1)}`, id);
    return;
  }
  const error = outcome.error.slice(0, ERROR_LENGTH);
  if (outcome.kind === 'retry') {
    await ctx.client.$executeRawUnsafe(
      `update ${names.securityEvent} set ${q('state')} = 'ready', ${q('attempts')} = ${p(1)}, ${q('next_attempt_at')} = ${p(2)}, ${q('last_error')} = ${p(3)} where ${q('id')} = ${p(4)}`,
      outcome.attempts,
      BigInt(outcome.nextAttemptAt.getTime()),
      error,
      id,
    );
    return;
  }
  await ctx.client.$executeRawUnsafe(
    `update ${names.securityEvent} set ${q('state')} = 'dead', ${q('attempts')} = ${p(1)}, ${q('last_error')} = ${p(2)} where ${q('id')} = ${p(3)}`,
    outcome.attempts,
    error,
    id,
  );
}
