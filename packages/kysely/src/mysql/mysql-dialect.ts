import { sql, type Kysely } from 'kysely';
import type { RateLimitDb } from '../schema.js';
import type { SqlDialect } from '../dialect/sql-dialect.js';

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

  // No RETURNING on upserts: the upsert locks the row, the SELECT in the same
  // transaction reads the value it wrote. Assignments run left to right, so
  // `count` is decided before `reset_at` changes.
  hitCounter: (db, table, key, nowMs, windowMs) =>
    mysqlDialect.transaction(db, async (trx: Kysely<RateLimitDb>) => {
      const resetAtMs = nowMs + windowMs;
      await sql`insert into ${sql.table(table)} (counter_key, count, reset_at) values (${key}, 1, ${resetAtMs})
        on duplicate key update
          count = if(reset_at <= ${nowMs}, 1, count + 1),
          reset_at = if(reset_at <= ${nowMs}, ${resetAtMs}, reset_at)`.execute(trx);
      const row = await trx.selectFrom(table).select(['count', 'reset_at']).where('counter_key', '=', key).executeTakeFirstOrThrow();
      return { count: Number(row.count), resetAtMs: Number(row.reset_at) };
    }),

  idColumn: (column) => column,

  async tableOptions(db) {
    const result = await sql<{ Collation: string }>`show collation where Charset = 'utf8mb4'`.execute(db);
    const available = new Set(result.rows.map((row) => row.Collation));
    const collation = BINARY_COLLATIONS.find((name) => available.has(name)) ?? 'utf8mb4_bin';
    return sql`engine = InnoDB default charset = utf8mb4 collate = ${sql.raw(collation)}`;
  },
};
