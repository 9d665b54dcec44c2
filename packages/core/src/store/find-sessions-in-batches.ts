import { SESSION_READ_BATCH_LIMIT } from './coalesce-session-reads.js';
import type { SessionRecord } from './store-port.js';

/**
 * `SessionStore.findSessions` for a store that reads rows by a list of ids: the distinct ids in
 * reads of at most `batchLimit` (64 by default), all sent at once, each row made a record. A store author gives
 * the one read (`where id in (...)`) and the row's mapping; a failed read rejects the whole call.
 */
export async function findSessionsInBatches<Row>(
  ids: readonly string[],
  read: (batch: readonly string[]) => PromiseLike<readonly Row[]>,
  toRecord: (row: Row) => SessionRecord,
  batchLimit = SESSION_READ_BATCH_LIMIT,
): Promise<Map<string, SessionRecord>> {
  if (!Number.isInteger(batchLimit) || batchLimit < 1)
    throw new TypeError(`findSessionsInBatches: batchLimit must be a positive integer, got ${batchLimit}`);
  const distinct = [...new Set(ids)];
  const batches: string[][] = [];
  for (let start = 0; start < distinct.length; start += batchLimit) batches.push(distinct.slice(start, start + batchLimit));
  const results = await Promise.all(batches.map((batch) => read(batch)));
  const found = new Map<string, SessionRecord>();
  for (const rows of results) {
    for (const row of rows) {
      const record = toRecord(row);
      found.set(record.id, record);
    }
  }
  return found;
}
