import { findSessionsInBatches, type SessionRecord, sessionRecordFromModelRow } from '@sessauth/core/store';
import type { ClientContext } from './store-context.js';

/**
 * The guard's batched read (`SessionStore.findSessions`): `findMany` with `id: { in }` over
 * bounded batches of ids, all sent at once. PostgreSQL and MySQL/MariaDB only: there a read
 * waits on the network, and the reads of one event-loop turn can share a query.
 */
export function findSessions(ctx: ClientContext, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const sessions = ctx.client.sessauthSession;
  return findSessionsInBatches(ids, (batch) => sessions.findMany({ where: { id: { in: [...batch] } } }), sessionRecordFromModelRow);
}
