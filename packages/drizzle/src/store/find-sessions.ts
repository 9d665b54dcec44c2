import { findSessionsInBatches, type SessionRecord, sessionRecordFromModelRow } from '@sessauth/core/store';
import { inArray } from 'drizzle-orm';
import type { SessionRow } from './session-row.js';
import type { StoreContext } from './store-context.js';

/**
 * The guard's batched read (`SessionStore.findSessions`): `where id in (...)` over bounded
 * batches of ids, all sent at once. PostgreSQL and MySQL/MariaDB only: there a read waits on
 * the network, and the reads of one event-loop turn can share a statement.
 */
export function findSessions(ctx: StoreContext, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const { engine, t } = ctx;
  return findSessionsInBatches(
    ids,
    (batch) =>
      engine.db
        .select<SessionRow>()
        .from(t)
        .where(inArray(t.id, [...batch])),
    sessionRecordFromModelRow,
  );
}
