import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { activeOf, notRevoked, rotateMatch, swapSet, type RotateValues } from '../store/conditions.js';
import type { QueryDb, SessionEngine } from '../store/engine.js';
import { oldestBeyondCap } from '../store/login-cap.js';
import { finalOutcome, lockedDecision, type SwapResult } from '../store/rotate-outcome.js';
import type { SessionRow } from '../store/session-row.js';
import { sessionRecordFromModelRow } from '@sessauth/core/store';
import { type UpsertReturningDb, upsertCounterReturning } from '../store/upsert-counter.js';
import type { SessauthSqliteTables } from './schema.js';

/** A drizzle SQLite database over a synchronous driver (better-sqlite3); its schema does not matter here. */
export type SyncSqliteDatabase = BaseSQLiteDatabase<'sync', unknown, Record<string, unknown>>;

// BEGIN IMMEDIATE takes the write lock up front: another process's writer waits (or meets
// SQLITE_BUSY, which the store retries) instead of failing to upgrade a read lock later.
const IMMEDIATE = { behavior: 'immediate' } as const;

/**
 * SQLite over a synchronous driver: UPDATE ... RETURNING, and transactions that run whole
 * within one synchronous call. Nothing else on the connection can interleave with them (a
 * host's own statements included), and SQLite's write lock excludes other processes, so a
 * transaction needs no row lock.
 */
export function sqliteEngine(db: SyncSqliteDatabase, tables: SessauthSqliteTables): SessionEngine {
  const t = tables.session;
  const swap = (executor: SyncSqliteDatabase, values: RotateValues): SwapResult => {
    const row = executor.update(t).set(swapSet(values)).where(rotateMatch(t, values)).returning().get();
    return row === undefined ? 'no_swap' : sessionRecordFromModelRow(row as SessionRow);
  };
  return {
    name: 'sqlite',
    batchedReads: false,
    db: db as unknown as QueryDb,
    tables,
    sessionSchema: [t],
    // Counted from RETURNING (any table: the statement returns one constant per row).
    changed: async (query) => (await query.returning!({ one: sql`1` })).length,
    swap: async (values) => swap(db, values),

    insertWithinCap: async (row, cap) =>
      db.transaction((tx) => {
        const active = tx
          .select({ id: t.id, createdAt: t.createdAt })
          .from(t)
          .where(activeOf(t, row.userId, row.createdAt))
          .all();
        const evicted = oldestBeyondCap(active, row, cap);
        const others = evicted.filter((id) => id !== row.id);
        if (others.length > 0)
          tx.update(t)
            .set({ expiredAt: row.createdAt })
            .where(and(inArray(t.id, others), isNull(t.expiredAt)))
            .run();
        const stored = evicted.length === others.length ? row : { ...row, expiredAt: row.createdAt };
        tx.insert(t).values(stored).run();
        return stored;
      }, IMMEDIATE),

    settleLocked: async (values) =>
      db.transaction((tx) => {
        const row = tx.select().from(t).where(eq(t.id, values.id)).get() as SessionRow | undefined;
        const settled = finalOutcome(row, values);
        if (settled !== null || row === undefined) return settled ?? { status: 'missing' };
        const decision = lockedDecision(row, values);
        if (decision !== 'swap') {
          tx.update(t).set({ expiredAt: values.now }).where(notRevoked(t, values.id)).run();
          return { status: decision };
        }
        const swapped = swap(tx, values);
        if (swapped === 'no_swap' || swapped === null) throw new Error('rotate: locked row did not swap');
        return { status: 'consumed', session: swapped };
      }, IMMEDIATE),

    // One synchronous transaction under SQLite's write lock: nothing interleaves with it.
    appendActivity: async (_userId, rows, max) =>
      db.transaction((tx) => {
        const a = tables.activity;
        tx.insert(a)
          .values([...rows])
          .run();
        for (const sessionId of new Set(rows.map((row) => row.sessionId))) {
          const beyond = tx.select({ id: a.id }).from(a).where(eq(a.sessionId, sessionId)).orderBy(desc(a.id)).limit(1).offset(max).get();
          if (beyond !== undefined)
            tx.delete(a)
              .where(and(eq(a.sessionId, sessionId), lte(a.id, beyond.id)))
              .run();
        }
      }, IMMEDIATE),

    insertNew: async (table, rows) => {
      db.insert(table as SQLiteTable)
        .values([...rows])
        .onConflictDoNothing()
        .run();
    },

    hitCounter: (key, nowMs, windowMs) => upsertCounterReturning(db as unknown as UpsertReturningDb, tables.rateLimit, key, nowMs, windowMs),
  };
}
