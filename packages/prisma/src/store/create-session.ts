import type { CreateSessionInput, SessionModelRow, SessionRecord } from '@sessauth/core/store';
import {
  POSTGRES_NEEDS_READ_COMMITTED,
  POSTGRES_OTHER_TABLE,
  POSTGRES_UNDEFINED_FUNCTION,
  sessionRecordFromModelRow,
  toSessionModelRow,
} from '@sessauth/core/store';
import { oldestBeyondCap } from './login-cap.js';
import { originalCode } from './prisma-errors.js';
import { activeOf } from './session-writes.js';
import type { ClientContext } from './store-context.js';

/**
 * Clients whose database refused the one-statement login: the function of migration
 * 0007_sessauth_login_function is not there, the connections default to an isolation level other
 * than READ COMMITTED, or the function found keeps another table's cap (another schema). Nothing
 * ran; they keep the transaction for the client's life.
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
  // The statement waits for the user's lock no longer than the call's deadline: a login already
  // answered with 503 must not commit later.
  const { text, parameters } = ctx.sql.loginStatement(ctx.names, row, cap, ctx.timeoutMs);
  let rows: Array<{ expired_at?: unknown }>;
  try {
    rows = await ctx.client.$queryRawUnsafe<Array<{ expired_at?: unknown }>>(text, ...parameters);
  } catch (error) {
    if (!(await refusedWhole(ctx, error))) throw error;
    noLoginStatement.add(ctx.client);
    return null;
  }
  const answer = rows[0];
  if (answer === undefined || !('expired_at' in answer)) throw new Error('the login statement answered no expired_at');
  return answer.expired_at === null ? row : { ...row, expiredAt: Number(answer.expired_at) };
}

/**
 * The function is missing (adapter-pg does not pass on where an undefined_function was raised, so
 * the database is asked), or it refused an isolation level or a table: nothing ran.
 */
async function refusedWhole(ctx: ClientContext, error: unknown): Promise<boolean> {
  const code = originalCode(error);
  if (code === POSTGRES_NEEDS_READ_COMMITTED || code === POSTGRES_OTHER_TABLE) return true;
  if (code !== POSTGRES_UNDEFINED_FUNCTION || ctx.sql.hasLoginFunction === undefined) return false;
  return !(await ctx.sql.hasLoginFunction(ctx.client, ctx.names));
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
