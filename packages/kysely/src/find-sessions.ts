import type { SessionRecord } from '@sessauth/core';
import { findSessionsInBatches } from '@sessauth/core/store';
import { type CompiledQuery, type Compilable, type Kysely, sql } from 'kysely';
import type { SqlDialect } from './dialect/sql-dialect.js';
import { PreparedQuery, slot } from './prepared-query.js';
import type { SessionDb } from './schema.js';
import { type PackedSessionRow, SESSION_COLUMNS, type SessionRow, toRecord, unpackSessionRow } from './session-row.js';
import type { StoreContext } from './store-context.js';

/** Ids per statement: the `in (...)` list's longest form, and one `any($1)` array's bound. */
const SESSION_BATCH_LIMIT = 64;

type BatchRow = SessionRow | PackedSessionRow;

/** The statement that reads up to `SESSION_BATCH_LIMIT` distinct ids. */
type BatchReadStatement = (ids: readonly string[]) => CompiledQuery<BatchRow>;

/**
 * The dialect's batched read, compiled once per store; undefined where the dialect has
 * none (SQLite). Rows come back as the guard's `findSession` reads them (packed where the
 * dialect packs), so a batch costs the driver no more per row than single reads do.
 */
export function prepareBatchRead(db: Kysely<SessionDb>, table: string, dialect: SqlDialect): BatchReadStatement | undefined {
  const packed = dialect.packColumns?.(SESSION_COLUMNS);
  const from = db.selectFrom(table);
  type Filtered = ReturnType<typeof from.where>;
  const select = (filtered: Filtered): Compilable<BatchRow> =>
    (packed === undefined ? filtered.select(SESSION_COLUMNS) : filtered.select(packed.as('packed'))) as Compilable<BatchRow>;
  if (dialect.batchedRead === 'any-array') {
    const query = new PreparedQuery(select(from.where(sql<boolean>`${sql.ref('id')} = any(${slot<string[]>('ids')})`)), ['ids']);
    return (ids) => query.bind({ ids: [...ids] });
  }
  if (dialect.batchedRead === 'in-list') {
    // One prepared form per power of two (2..64): a handful of server-side statements per
    // connection, not one per length. The list is padded with its last id (no extra row).
    const forms = new Map<number, PreparedQuery<BatchRow, string>>();
    return (ids) => {
      const length = Math.max(2, 2 ** Math.ceil(Math.log2(ids.length)));
      let query = forms.get(length);
      if (query === undefined) {
        const names = Array.from({ length }, (_, index) => `id${index}`);
        query = new PreparedQuery(
          select(
            from.where(
              'id',
              'in',
              names.map((name) => slot<string>(name)),
            ),
          ),
          names,
        );
        forms.set(length, query);
      }
      const last = ids[ids.length - 1];
      const values: Record<string, unknown> = {};
      for (let index = 0; index < length; index += 1) values[`id${index}`] = ids[index] ?? last;
      return query.bind(values);
    };
  }
  return undefined;
}

/** Every id's row, read in statements of at most `SESSION_BATCH_LIMIT` ids, all sent at once. */
export function findSessions(ctx: StoreContext, statement: BatchReadStatement, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  return findSessionsInBatches(
    ids,
    async (batch) => (await readRows(ctx, statement(batch))) as BatchRow[],
    (row) => toRecord('packed' in row ? unpackSessionRow(row) : row),
    SESSION_BATCH_LIMIT,
  );
}

/** The prepared statement below kysely where the store has direct reads, else through kysely. */
async function readRows(ctx: StoreContext, query: CompiledQuery<BatchRow>): Promise<readonly unknown[]> {
  const hot = ctx.directReads?.readHot(query.sql, query.parameters) ?? null;
  return hot === null ? (await ctx.db.executeQuery(query)).rows : await hot;
}
