import type { SessionRecord } from '@sessauth/core';
import type { CreateSessionInput } from '@sessauth/core/store';
import type { ActiveKey } from './session-queries.js';
import { runInOneTrip } from './one-trip.js';
import { toInsertRow, toRecord, type SessionInsert } from './session-row.js';
import type { StoreContext } from './store-context.js';

/**
 * Login: in one transaction, take the user's lock, revoke the oldest active
 * sessions beyond the cap and insert the new one. The lock (advisory on
 * PostgreSQL, a lock row on MySQL, the write lock on SQLite) also covers a user
 * with no rows yet, so concurrent logins can never leave more than the cap active.
 * MariaDB sends the whole transaction in one round trip (a compound statement), PostgreSQL
 * one statement calling migration 0009's function (`postgres/login-function.ts`); MySQL,
 * PostgreSQL before 0009 and SQLite (in process) run it statement by statement.
 */
export async function createSession(ctx: StoreContext, input: CreateSessionInput): Promise<SessionRecord> {
  const row = toInsertRow(input.session);
  const oneTrip = ctx.dialect.oneTripCreate;
  // The statement waits for the user's lock no longer than the call's deadline: a login already
  // answered with 503 must not commit later.
  const answered = await runInOneTrip(ctx.db, oneTrip?.(ctx.names, row, input.maxActiveSessions, ctx.policy.timeoutMs));
  if (answered !== null) return createdInOneTrip(ctx, row, answered);
  const now = row.created_at;
  await ctx.dialect.transaction(ctx.db, async (trx) => {
    await ctx.dialect.lockUser(trx, ctx.names, row.user_id);
    const { rows: active } = await trx.executeQuery(ctx.queries.activeOldestFirst.bind({ userId: row.user_id, now }));
    const evicted = oldestBeyondCap(active, { id: row.id, created_at: now }, input.maxActiveSessions);
    const others = evicted.filter((id) => id !== row.id);
    if (others.length > 0) {
      await trx.updateTable(ctx.names.session).set({ expired_at: now }).where('id', 'in', others).where('expired_at', 'is', null).execute();
    }
    // Only a newcomer older than `cap` active sessions is itself the oldest
    // (logins arriving out of order); it is stored revoked.
    if (evicted.length !== others.length) row.expired_at = now;
    await trx.insertInto(ctx.names.session).values(row).execute();
  });
  return toRecord(row);
}

/**
 * The record after the one-trip form (`mysql/compound-statements.ts` and
 * `postgres/login-function.ts` say how each stays atomic), from the newcomer's `expired_at`
 * it answers (read back if it answered none).
 */
async function createdInOneTrip(ctx: StoreContext, row: SessionInsert, rows: unknown[]): Promise<SessionRecord> {
  const answer =
    (rows[0] as { expired_at: number | string | null } | undefined) ?? (await ctx.db.executeQuery(ctx.queries.findById.bind({ id: row.id }))).rows[0];
  if (answer === undefined) throw new Error('createSession: the new row is missing');
  row.expired_at = answer.expired_at === null ? null : Number(answer.expired_at);
  return toRecord(row);
}

/** Ids to revoke so that, with the newcomer, at most `cap` stay active: oldest first, ties by id. */
function oldestBeyondCap(active: readonly ActiveKey[], newcomer: ActiveKey, cap: number): string[] {
  const all = [...active, newcomer].map((key) => ({ id: key.id, at: Number(key.created_at) }));
  const excess = all.length - Math.max(cap, 0);
  if (excess <= 0) return [];
  all.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, excess).map((key) => key.id);
}
