import { SessauthError } from '@sessauth/core';
import { decodeAdminCursor, encodeAdminCursor } from '@sessauth/core/store';
import type { AdminSessionPage, AdminSessionQuery } from '@sessauth/core/store';
import { toRecord, type SessionRow } from './session-row.js';
import type { StoreContext } from './store-context.js';

/**
 * The admin listing: newest first (created_at desc, id desc), keyset-paginated so
 * a deep page costs the same as the first; the (created_at, id) index serves it.
 * One row more than `limit` is read to know whether another page exists.
 */
export async function listSessionsForAdmin(ctx: StoreContext, query: AdminSessionQuery): Promise<AdminSessionPage> {
  const limit = pageSize(query);
  const rows = (await adminListingQuery(ctx, query).execute()) as SessionRow[];
  const sessions = rows.slice(0, limit).map(toRecord);
  const last = sessions[sessions.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeAdminCursor({ createdAt: last.createdAt, id: last.id }) : null;
  return { sessions, nextCursor };
}

const pageSize = (query: AdminSessionQuery): number => (Number.isFinite(query.limit) ? Math.max(1, Math.floor(query.limit)) : 1);

/** The page's SELECT; a cursor that is not one of ours is bad client input (400), not a fault. */
export function adminListingQuery(ctx: StoreContext, query: AdminSessionQuery) {
  const nowMs = query.now.getTime();
  let select = ctx.db.selectFrom(ctx.names.session).selectAll();
  if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
  if (query.status === 'active') {
    select = select.where('expired_at', 'is', null).where('expires_at', '>', nowMs);
  } else if (query.status === 'revoked') {
    select = select.where((eb) => eb.or([eb('expired_at', 'is not', null), eb('expires_at', '<=', nowMs)]));
  }
  if (query.after !== undefined) {
    const cursor = decodeAdminCursor(query.after);
    if (cursor === null) throw new SessauthError('invalid_request');
    const createdAt = cursor.createdAt.getTime();
    select = select.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', cursor.id)])]));
  }
  return select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize(query) + 1);
}
