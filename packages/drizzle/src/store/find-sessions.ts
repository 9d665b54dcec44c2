import { type SessionRecord, sessionRecordFromModelRow } from '@sessauth/core/store';
import { inArray } from 'drizzle-orm';
import type { SessionRow } from './session-row.js';
import type { StoreContext } from './store-context.js';

/** Ids per statement: a bounded `in (...)` list, as `@sessauth/kysely` bounds its own. */
const SESSION_BATCH_LIMIT = 64;

/**
 * The guard's batched read (`SessionStore.findSessions`): every id's row, in statements of at
 * most `SESSION_BATCH_LIMIT` distinct ids, all sent at once. PostgreSQL and MySQL/MariaDB only:
 * there a read waits on the network, and the reads of one event-loop turn can share a statement.
 */
export async function findSessions(ctx: StoreContext, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const { engine, t } = ctx;
  const distinct = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let start = 0; start < distinct.length; start += SESSION_BATCH_LIMIT) chunks.push(distinct.slice(start, start + SESSION_BATCH_LIMIT));
  const results = await Promise.all(chunks.map((chunk) => engine.db.select<SessionRow>().from(t).where(inArray(t.id, chunk))));
  const found = new Map<string, SessionRecord>();
  for (const rows of results) {
    for (const row of rows) {
      const record = sessionRecordFromModelRow(row);
      found.set(record.id, record);
    }
  }
  return found;
}
