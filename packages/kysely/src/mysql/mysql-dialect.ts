import { sql, type Kysely } from 'kysely';
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

  // No RETURNING on upserts. One statement all the same: the upsert hands the new count and
  // window end back through LAST_INSERT_ID(expr), which the OK packet carries (the classic
  // MySQL counter). A fresh row sets no id (0): count 1, a new window. Assignments run left to
  // right, so `count` is decided before `reset_at` changes.
  hitCounter: (db, table, key, nowMs, windowMs) =>
    (windowMs < PACKED_WINDOW_LIMIT_MS ? hitInOneStatement : hitWithReadBack)(db, table, key, nowMs, windowMs),

  idColumn: (column) => column,

  async tableOptions(db) {
    const result = await sql<{ Collation: string }>`show collation where Charset = 'utf8mb4'`.execute(db);
    const available = new Set(result.rows.map((row) => row.Collation));
    const collation = BINARY_COLLATIONS.find((name) => available.has(name)) ?? 'utf8mb4_bin';
    return sql`engine = InnoDB default charset = utf8mb4 collate = ${sql.raw(collation)}`;
  },
};

/** The packed answer: (window end - now) in ms times 2^24 plus the count, below 2^53 (exact in a JS number). */
const COUNT_BITS = 2 ** 24;
/** Windows shorter than this (about 74 h) are counted in one statement; longer ones read back. */
const PACKED_WINDOW_LIMIT_MS = 2 ** 28;

async function hitInOneStatement(db: Kysely<RateLimitDb>, table: string, key: string, nowMs: number, windowMs: number): Promise<CounterState> {
  const resetAtMs = nowMs + windowMs;
  const result = await sql`insert into ${sql.table(table)} (counter_key, count, reset_at) values (${key}, 1, ${resetAtMs})
    on duplicate key update
      count = if(reset_at <= ${nowMs}, 1, count + 1),
      reset_at = if(reset_at <= ${nowMs}, ${resetAtMs}, reset_at)
        + 0 * last_insert_id(least(if(reset_at <= ${nowMs}, ${resetAtMs}, reset_at) - ${nowMs}, ${PACKED_WINDOW_LIMIT_MS - 1}) * ${COUNT_BITS} + least(count, ${COUNT_BITS - 1}))`.execute(
    db,
  );
  const packed = Number(result.insertId ?? 0n);
  if (packed === 0) return { count: 1, resetAtMs };
  // A window end stored by a longer window of an earlier configuration reads as at most ~74 h away.
  return { count: packed % COUNT_BITS, resetAtMs: nowMs + Math.floor(packed / COUNT_BITS) };
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
