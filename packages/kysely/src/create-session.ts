import type { SessionRecord } from '@sessauth/core';
import type { CreateSessionInput } from '@sessauth/core/store';
import type { ActiveKey } from './session-queries.js';
import { toInsertRow, toRecord } from './session-row.js';
import type { StoreContext } from './store-context.js';

/**
 * Login: in one transaction, take the user's lock, revoke the oldest active
 * sessions beyond the cap and insert the new one. The lock (advisory on
 * PostgreSQL, a lock row on MySQL, the write lock on SQLite) also covers a user
 * with no rows yet, so concurrent logins can never leave more than the cap active.
 */
export async function createSession(ctx: StoreContext, input: CreateSessionInput): Promise<SessionRecord> {
  const row = toInsertRow(input.session);
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

/** Ids to revoke so that, with the newcomer, at most `cap` stay active: oldest first, ties by id. */
function oldestBeyondCap(active: readonly ActiveKey[], newcomer: ActiveKey, cap: number): string[] {
  const all = [...active, newcomer].map((key) => ({ id: key.id, at: Number(key.created_at) }));
  const excess = all.length - Math.max(cap, 0);
  if (excess <= 0) return [];
  all.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, excess).map((key) => key.id);
}
