import { eq, getTableName, sql, type Table } from 'drizzle-orm';
import type { MySqlDatabase, MySqlQueryResultHKT, MySqlTable, PreparedQueryHKTBase } from 'drizzle-orm/mysql-core';
import { asyncTransactions } from '../store/async-engine.js';
import { bound, marker } from '../store/bound-statement.js';
import { rotateMatch, swapSet, type RotateValues } from '../store/conditions.js';
import type { CounterState, QueryDb, SessionEngine } from '../store/engine.js';
import { afterSwap, type SwapResult } from '../store/rotate-outcome.js';
import type { SessionRow } from '../store/session-row.js';
import { MYSQL_PACKED_WINDOW_LIMIT_MS, mysqlCounterFromInsertId, mysqlCounterHitStatement, sessionRecordFromModelRow } from '@sessauth/core/store';
import { counterUpdate } from '../store/upsert-counter.js';
import { fromStoredRow, lastSelectedRow, runCompoundStatement } from './compound-statement.js';
import { hitCountersInOneStatement } from './counter-hits.js';
import { insertInOneCompoundStatement } from './login-statement.js';
import type { SessauthMysqlTables } from './schema.js';

/** Any drizzle MySQL database (mysql2); its schema does not matter here. */
export type AnyMysqlDatabase = MySqlDatabase<MySqlQueryResultHKT, PreparedQueryHKTBase, Record<string, unknown>>;

/** Rows an UPDATE or DELETE changed: mysql2 answers `[ResultSetHeader, fields]`. */
function affectedRows(result: unknown): number {
  const header = (Array.isArray(result) ? result[0] : result) as { affectedRows?: unknown } | undefined;
  return Number(header?.affectedRows ?? 0);
}

// READ COMMITTED: locking reads take no gap locks, so logins of different users never block
// or deadlock each other on index gaps.
const READ_COMMITTED = { isolationLevel: 'read committed' } as const;

/** MySQL and MariaDB: no RETURNING (a swap re-reads its row), row locks, a lock row per user. */
export function mysqlEngine(db: AnyMysqlDatabase, tables: SessauthMysqlTables): SessionEngine {
  const { session: t, userLock, rateLimit } = tables;
  const swap = async (executor: AnyMysqlDatabase, values: RotateValues): Promise<SwapResult> => {
    if (affectedRows(await executor.update(t).set(swapSet(values)).where(rotateMatch(t, values))) !== 1) return 'no_swap';
    const [row] = await executor.select().from(t).where(eq(t.id, values.id));
    return row === undefined ? null : afterSwap(sessionRecordFromModelRow(row as SessionRow), values);
  };
  // MariaDB: the conditional UPDATE and, only when it changed the row, its read-back, in one compound
  // statement (one round trip; no RETURNING on UPDATE there). No result set means no swap.
  const swapInOneStatement = async (values: RotateValues): Promise<SwapResult | undefined> => {
    const result = await runCompoundStatement(
      db,
      () =>
        sql`begin not atomic ${db.update(t).set(swapSet(values)).where(rotateMatch(t, values)).getSQL()}; if row_count() = 1 then ${db
          .select()
          .from(t)
          .where(eq(t.id, values.id))
          .getSQL()}; end if; end`,
    );
    if (result === null) return undefined;
    const stored = lastSelectedRow(result);
    return stored === undefined ? 'no_swap' : afterSwap(sessionRecordFromModelRow(fromStoredRow(t, stored)), values);
  };
  // MySQL (no compound statement): each hit one statement (`mysqlCounterHitStatement` says how); a
  // window over about 74 h its own transaction, the upsert then the read of what it wrote.
  const hitAlone = async (key: string, nowMs: number, windowMs: number): Promise<CounterState> => {
    if (windowMs >= MYSQL_PACKED_WINDOW_LIMIT_MS) return hitInTransaction(key, nowMs, windowMs);
    const { text, parameters } = mysqlCounterHitStatement(getTableName(rateLimit), key, nowMs, windowMs, marker);
    const [header] = (await db.execute(bound(text, parameters))) as unknown as [{ insertId?: number | bigint }];
    return mysqlCounterFromInsertId(header.insertId, nowMs, windowMs);
  };
  const hitInTransaction = (key: string, nowMs: number, windowMs: number): Promise<CounterState> =>
    db.transaction(async (tx) => {
      const resetAtMs = nowMs + windowMs;
      await tx
        .insert(rateLimit)
        .values({ counterKey: key, count: 1, resetAt: resetAtMs })
        .onDuplicateKeyUpdate({ set: counterUpdate(rateLimit, nowMs, resetAtMs) });
      const [row] = await tx.select({ count: rateLimit.count, resetAt: rateLimit.resetAt }).from(rateLimit).where(eq(rateLimit.counterKey, key));
      if (row === undefined) throw new Error('counter upsert left no row');
      return { count: Number(row.count), resetAtMs: Number(row.resetAt) };
    }, READ_COMMITTED);
  const transactions = asyncTransactions<AnyMysqlDatabase>({
    session: t,
    activity: tables.activity,
    transaction: (work) => db.transaction(work, READ_COMMITTED),
    builders: (tx) => tx as unknown as QueryDb,
    // No transaction-scoped advisory lock in MySQL (GET_LOCK is per connection and would leak
    // into the pool on an error): the upsert takes an exclusive lock on the user's row, also
    // for a first login, held until COMMIT. The same row @sessauth/kysely locks.
    lockUser: async (tx, userId) => {
      await tx
        .insert(userLock)
        .values({ userId })
        .onDuplicateKeyUpdate({ set: { userId: sql`${userLock.userId}` } });
    },
    readForUpdate: async (tx, id) => (await tx.select().from(t).where(eq(t.id, id)).for('update'))[0] as SessionRow | undefined,
    swap,
  });
  return {
    name: 'mysql',
    batchedReads: true,
    db: db as unknown as QueryDb,
    tables,
    sessionSchema: [t, userLock],
    // mysql2 counts the rows whose value changed; the stores account for it where it matters (rename).
    changed: async (query) => affectedRows(await query),
    swap: async (values) => (await swapInOneStatement(values)) ?? swap(db, values),
    ...transactions,
    // One compound statement on MariaDB; MySQL refuses it (nothing ran) and keeps the transaction.
    insertWithinCap: async (row, cap, lockWaitMs) =>
      (await insertInOneCompoundStatement(db, { session: t, userLock }, row, cap)) ?? transactions.insertWithinCap(row, cap, lockWaitMs),
    // Not INSERT IGNORE, which would also turn a too-long value into a warning: only a stored
    // primary key is left as it is (a no-op assignment).
    insertNew: async (table, rows) => {
      await db
        .insert(table as unknown as MySqlTable)
        .values([...rows])
        .onDuplicateKeyUpdate({ set: { id: sql`${table.id}` } });
    },
    // One statement (no RETURNING on upserts there: the count comes back in the OK packet).
    hitCounter: hitAlone,
    // A login's hits in one compound statement on MariaDB; on MySQL one statement each, in order.
    hitCounters: async (hits, nowMs) => {
      const inOne = await hitCountersInOneStatement(db, rateLimit, hits, nowMs);
      if (inOne !== null) return inOne;
      const states: CounterState[] = [];
      for (const hit of hits) {
        const state = await hitAlone(hit.key, nowMs, hit.windowMs);
        states.push(state);
        if (state.count > hit.limit) break;
      }
      return states;
    },
    nonBinaryCollation: (which) =>
      nonBinaryCollation(
        db,
        which === 'session'
          ? [
              [t, ['id', 'user_id', 'refresh_jti', 'security_stamp']],
              [userLock, ['user_id']],
            ]
          : [[rateLimit, ['counter_key']]],
      ),
  };
}

/**
 * The first text column of these that does not compare byte for byte (its collation is not a
 * `_bin` one), with its table, or null. Tables made outside drizzle-kit (by hand,
 * by an older tool) may carry the database's default, case-insensitive collation: then
 * "ABC" would find the session of "abc".
 */
async function nonBinaryCollation(
  db: AnyMysqlDatabase,
  checks: ReadonlyArray<readonly [Table, readonly string[]]>,
): Promise<{ table: string; column: string } | null> {
  for (const [table, columns] of checks) {
    const [rows] = (await db.execute(
      sql`select column_name as name, collation_name as collation from information_schema.columns
        where table_schema = database() and table_name = ${getTableName(table)} and column_name in (${sql.join(
          columns.map((column) => sql`${column}`),
          sql`, `,
        )})`,
    )) as unknown as [Array<{ name: string; collation: string | null }>];
    const wrong = rows.find((row) => row.collation === null || !row.collation.endsWith('_bin'));
    if (wrong !== undefined)
      return { table: getTableName(table), column: `${getTableName(table)}.${wrong.name} (${wrong.collation ?? 'no collation'})` };
  }
  return null;
}
