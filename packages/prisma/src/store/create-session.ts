import type { CreateSessionInput, SessionModelRow, SessionRecord } from '@sessauth/core/store';
import { POSTGRES_NEEDS_READ_COMMITTED, POSTGRES_UNDEFINED_FUNCTION, sessionRecordFromModelRow, toSessionModelRow } from '@sessauth/core/store';
import { oldestBeyondCap } from './login-cap.js';
import { originalCode } from './prisma-errors.js';
import { activeOf } from './session-writes.js';
import type { ClientContext } from './store-context.js';

/**
 * Clients whose database refused the one-statement login: the function of migration
 * 0007_sessauth_login_function is not there, or the connections default to an isolation level
 * other than READ COMMITTED. Nothing ran; they keep the transaction for the client's life.
 */
const noLoginStatement = new WeakSet<object>();

/**
 * Login. On PostgreSQL, one statement: the login function takes the user's lock and revokes the
 * oldest active sessions beyond the cap, then the row is inserted (the core's
 * `postgresLoginStatement`). Elsewhere, or before that migration, one interactive transaction:
 * take the user's lock (the same advisory lock on PostgreSQL, a lock row on MySQL, SQLite's write
 * lock), revoke, insert. The lock also covers a user with no rows yet, so concurrent logins can
 * never leave more than the cap active.
 */
export async function createSession(ctx: ClientContext, input: CreateSessionInput): Promise<SessionRecord> {
  const row = toSessionModelRow(input.session);
  const stored = (await inOneStatement(ctx, row, input.maxActiveSessions)) ?? (await inTransaction(ctx, row, input.maxActiveSessions));
  return sessionRecordFromModelRow(stored);
}

async function inOneStatement(ctx: ClientContext, row: SessionModelRow<number>, cap: number): Promise<SessionModelRow<number> | null> {
  if (ctx.sql.loginStatement === undefined || noLoginStatement.has(ctx.client)) return null;
  const { text, parameters } = ctx.sql.loginStatement(ctx.names, row, cap);
  try {
    const [answer] = await ctx.client.$queryRawUnsafe<Array<{ expired_at: unknown }>>(text, ...parameters);
    const expiredAt = answer?.expired_at;
    return expiredAt === null || expiredAt === undefined ? row : { ...row, expiredAt: Number(expiredAt) };
  } catch (error) {
    const code = originalCode(error);
    if (code !== POSTGRES_UNDEFINED_FUNCTION && code !== POSTGRES_NEEDS_READ_COMMITTED) throw error;
    noLoginStatement.add(ctx.client);
    return null;
  }
}

async function inTransaction(ctx: ClientContext, row: SessionModelRow<number>, cap: number): Promise<SessionModelRow<number>> {
  const now = Number(row.createdAt);
  return ctx.client.$transaction(async (tx) => {
    await ctx.sql.lockUser(tx, ctx.names, row.userId);
    const active = await tx.sessauthSession.findMany({ where: activeOf(row.userId, now) });
    const evicted = oldestBeyondCap(active, row, cap);
    const others = evicted.filter((id) => id !== row.id);
    if (others.length > 0) await tx.sessauthSession.updateMany({ where: { id: { in: others }, expiredAt: null }, data: { expiredAt: now } });
    // Only a newcomer older than `cap` active sessions is itself the oldest (logins arriving
    // out of order); it is stored revoked.
    const inserted = evicted.length === others.length ? row : { ...row, expiredAt: now };
    await tx.sessauthSession.create({ data: inserted });
    return inserted;
  }, ctx.transaction);
}
