import { MYSQL_PACKED_WINDOW_LIMIT_MS, mysqlCounterFromInsertId, mysqlCounterHitStatement } from '@sessauth/core/store';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { RateLimitDb } from '../schema.js';
import type { CounterState, SqlDialect } from '../dialect/sql-dialect.js';
import { oneTripCreateMariaDb, oneTripHitsMariaDb, oneTripRotateMariaDb } from './compound-statements.js';

/**
 * Binary collations without trailing-space padding, best first: ids, jtis and
 * user ids must compare byte for byte ('abc' must not equal 'ABC' or 'abc ').
 */
const BINARY_COLLATIONS = ['utf8mb4_0900_bin', 'utf8mb4_nopad_bin', 'utf8mb4_bin'] as const;

/** MySQL and MariaDB through kysely's MysqlDialect (`mysql2`). */
export const mysqlDialect: SqlDialect = {
  name: 'mysql',
  updateReturning: false,
  rowLocks: true,
  needsUserLockTable: true,
  batchedRead: 'in-list',

  // READ COMMITTED: locking reads take no gap locks, so logins of different users
  // never block or deadlock each other on index gaps.
  transaction: (db, fn) => db.transaction().setIsolationLevel('read committed').execute(fn),

  // MySQL has no transaction-scoped advisory lock (GET_LOCK is per connection and
  // would leak into the pool on an error), so upsert one row per user: the upsert
  // takes an exclusive row lock, also for the very first login, held until COMMIT.
  async lockUser(trx, names, userId) {
    await sql`insert into ${sql.table(names.userLock)} (user_id) values (${userId})
      on duplicate key update user_id = user_id`.execute(trx);
  },

  oneTripCreate: oneTripCreateMariaDb,
  oneTripRotate: oneTripRotateMariaDb,
  oneTripHits: oneTripHitsMariaDb,

  // One statement (`mysqlCounterHitStatement` says how), a read-back for windows over about 74 h.
  hitCounter: (db, table, key, nowMs, windowMs) =>
    (windowMs < MYSQL_PACKED_WINDOW_LIMIT_MS ? hitInOneStatement : hitWithReadBack)(db, table, key, nowMs, windowMs),

  idColumn: (column) => column,

  async tableOptions(db) {
    const result = await sql<{ Collation: string }>`show collation where Charset = 'utf8mb4'`.execute(db);
    const available = new Set(result.rows.map((row) => row.Collation));
    const collation = BINARY_COLLATIONS.find((name) => available.has(name)) ?? 'utf8mb4_bin';
    return sql`engine = InnoDB default charset = utf8mb4 collate = ${sql.raw(collation)}`;
  },
};

async function hitInOneStatement(db: Kysely<RateLimitDb>, table: string, key: string, nowMs: number, windowMs: number): Promise<CounterState> {
  const { text, parameters } = mysqlCounterHitStatement(table, key, nowMs, windowMs);
  const result = await db.executeQuery(CompiledQuery.raw(text, parameters));
  return mysqlCounterFromInsertId(result.insertId, nowMs, windowMs);
}

/** Two statements in one transaction: the upsert locks the row, the SELECT reads what it wrote. */
function hitWithReadBack(db: Kysely<RateLimitDb>, table: string, key: string, nowMs: number, windowMs: number): Promise<CounterState> {
  return mysqlDialect.transaction(db, async (trx: Kysely<RateLimitDb>) => {
    const resetAtMs = nowMs + windowMs;
    await sql`insert into ${sql.table(table)} (counter_key, count, reset_at) values (${key}, 1, ${resetAtMs})
      on duplicate key update
        count = if(reset_at <= ${nowMs}, 1, count + 1),
        reset_at = if(reset_at <= ${nowMs}, ${resetAtMs}, reset_at)`.execute(trx);
    const row = await trx.selectFrom(table).select(['count', 'reset_at']).where('counter_key', '=', key).executeTakeFirstOrThrow();
    return { count: Number(row.count), resetAtMs: Number(row.reset_at) };
  });
}
