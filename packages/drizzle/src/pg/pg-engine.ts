import { eq, getTableName, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { asyncTransactions } from '../store/async-engine.js';
import { rotateMatch, swapSet, type RotateValues } from '../store/conditions.js';
import type { QueryDb, SessionEngine } from '../store/engine.js';
import type { SwapResult } from '../store/rotate-outcome.js';
import type { SessionRow } from '../store/session-row.js';
import { postgresLoginLockKey, sessionRecordFromModelRow } from '@sessauth/core/store';
import { type UpsertReturningDb, upsertCounterReturning } from '../store/upsert-counter.js';
import type { SessauthPgTables } from './schema.js';
import { upsertCountersChained } from './upsert-counters-chained.js';
import { insertInOneStatement } from './login-statement.js';

/** Any drizzle PostgreSQL database (node-postgres, postgres.js, PGlite, ...); its schema does not matter here. */
export type AnyPgDatabase = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** PostgreSQL: UPDATE ... RETURNING, row locks, a transaction-scoped advisory lock per user. */
export function postgresEngine(db: AnyPgDatabase, tables: SessauthPgTables): SessionEngine {
  const t = tables.session;
  const swap = async (executor: AnyPgDatabase, values: RotateValues): Promise<SwapResult> => {
    const [row] = await executor.update(t).set(swapSet(values)).where(rotateMatch(t, values)).returning();
    return row === undefined ? 'no_swap' : sessionRecordFromModelRow(row as SessionRow);
  };
  const transactions = asyncTransactions<AnyPgDatabase>({
    session: t,
    activity: tables.activity,
    // READ COMMITTED, asked for (a database may default to another): each statement sees the
    // latest committed rows, so the read after the login lock sees every login before it.
    transaction: (work) => db.transaction(work, { isolationLevel: 'read committed' }),
    builders: (tx) => tx as unknown as QueryDb,
    // A transaction-scoped advisory lock: released by COMMIT/ROLLBACK, no table, no dead
    // tuples. The key is the one @sessauth/kysely and the login function take, so they all exclude each other.
    lockUser: async (tx, userId) => {
      const key = postgresLoginLockKey(getTableName(t), userId);
      await tx.execute(sql`select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(${key}::text, 0))`);
    },
    readForUpdate: async (tx, id) => (await tx.select().from(t).where(eq(t.id, id)).for('update'))[0] as SessionRow | undefined,
    swap,
  });
  return {
    name: 'postgres',
    batchedReads: true,
    db: db as unknown as QueryDb,
    tables,
    sessionSchema: [t],
    // Counted from RETURNING: the drivers disagree on where an UPDATE's row count is.
    changed: async (query) => (await query.returning!({ one: sql`1` })).length,
    swap: (values) => swap(db, values),
    ...transactions,
    // One statement through the login function where the database has it, else the transaction.
    insertWithinCap: async (row, cap, lockWaitMs) =>
      (await insertInOneStatement(db, t, row, cap, lockWaitMs)) ?? transactions.insertWithinCap(row, cap, lockWaitMs),
    insertNew: async (table, rows) => {
      await db
        .insert(table as PgTable)
        .values([...rows])
        .onConflictDoNothing();
    },
    hitCounter: (key, nowMs, windowMs) => upsertCounterReturning(db as unknown as UpsertReturningDb, tables.rateLimit, key, nowMs, windowMs),
    hitCounters: (hits, nowMs) => upsertCountersChained(db, tables.rateLimit, hits, nowMs),
  };
}
