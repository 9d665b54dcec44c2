import { type SessionRecord, sessionRecordFromModelRow } from '@sessauth/core/store';
import type { ClientContext } from './store-context.js';

/** Ids per query: a bounded `in (...)` list, as `@sessauth/kysely` bounds its own. */
const SESSION_BATCH_LIMIT = 64;

/**
 * The guard's batched read (`SessionStore.findSessions`): every id's row, in queries of at
 * most `SESSION_BATCH_LIMIT` distinct ids, all sent at once. PostgreSQL and MySQL/MariaDB only:
 * there a read waits on the network, and the reads of one event-loop turn can share a query.
 */
export async function findSessions(ctx: ClientContext, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const sessions = ctx.client.sessauthSession;
  const distinct = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let start = 0; start < distinct.length; start += SESSION_BATCH_LIMIT) chunks.push(distinct.slice(start, start + SESSION_BATCH_LIMIT));
  const results = await Promise.all(chunks.map((chunk) => sessions.findMany({ where: { id: { in: chunk } } })));
  const found = new Map<string, SessionRecord>();
  for (const rows of results) {
    for (const row of rows) {
      const record = sessionRecordFromModelRow(row);
      found.set(record.id, record);
    }
  }
  return found;
}
