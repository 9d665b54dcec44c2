import { sql } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { upsertCounterReturning } from '../dialect/upsert-counter-returning.js';
import { upsertCountersChained } from '../dialect/upsert-counters-chained.js';
import { loginLockKey, oneTripCreatePostgres } from './login-function.js';

/** PostgreSQL through kysely's PostgresDialect (`pg`). */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  updateReturning: true,
  rowLocks: true,
  needsUserLockTable: false,
  batchedRead: 'any-array',

  // READ COMMITTED, asked for (a database may default to another): each statement sees the
  // latest committed rows, so the read after the login lock sees every login before it.
  transaction: (db, fn) => db.transaction().setIsolationLevel('read committed').execute(fn),

  // A transaction-scoped advisory lock: released by COMMIT/ROLLBACK, no table, no
  // dead tuples. Keyed by table and user; a hash collision only serialises two users.
  async lockUser(trx, names, userId) {
    await sql`select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(${loginLockKey(names, userId)}::text, 0))`.execute(trx);
  },
  oneTripCreate: oneTripCreatePostgres,

  hitCounter: upsertCounterReturning,
  hitCounters: upsertCountersChained,

  // Byte order ("C") so keyset pagination and tie-breaks order ids the same way
  // on every engine, whatever the database's default collation is.
  idColumn: (column) => column.modifyFront(sql`collate "C"`),

  tableOptions: () => Promise.resolve(null),

  // One JSON array text per row: BIGINT millis come back as JSON numbers (exact below
  // 2^53), text as JSON strings, NULL as null; `unpackSessionRow` maps it by position.
  packColumns: (columns) => sql<string>`json_build_array(${sql.join(columns.map((column) => sql.ref(column)))})::text`,
};
