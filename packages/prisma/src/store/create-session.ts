import type { CreateSessionInput, SessionRecord } from '@sessauth/core/store';
import { oldestBeyondCap } from './login-cap.js';
import { toSessionModelRow, sessionRecordFromModelRow } from '@sessauth/core/store';
import { activeOf } from './session-writes.js';
import type { ClientContext } from './store-context.js';

/**
 * Login: in one interactive transaction, take the user's lock (advisory on PostgreSQL, a lock
 * row on MySQL, SQLite's write lock), revoke the oldest active sessions beyond the cap and insert
 * the new one. The lock also covers a user with no rows yet, so concurrent logins can never
 * leave more than the cap active.
 */
export async function createSession(ctx: ClientContext, input: CreateSessionInput): Promise<SessionRecord> {
  const row = toSessionModelRow(input.session);
  const now = Number(row.createdAt);
  const stored = await ctx.client.$transaction(async (tx) => {
    await ctx.sql.lockUser(tx, ctx.names, row.userId);
    const active = await tx.sessauthSession.findMany({ where: activeOf(row.userId, now) });
    const evicted = oldestBeyondCap(active, row, input.maxActiveSessions);
    const others = evicted.filter((id) => id !== row.id);
    if (others.length > 0) await tx.sessauthSession.updateMany({ where: { id: { in: others }, expiredAt: null }, data: { expiredAt: now } });
    // Only a newcomer older than `cap` active sessions is itself the oldest (logins arriving
    // out of order); it is stored revoked.
    const inserted = evicted.length === others.length ? row : { ...row, expiredAt: now };
    await tx.sessauthSession.create({ data: inserted });
    return inserted;
  }, ctx.transaction);
  return sessionRecordFromModelRow(stored);
}
