import { SessauthError } from '@sessauth/core';
import { type AdminSessionPage, type AdminSessionQuery, decodeAdminCursor, encodeAdminCursor } from '@sessauth/core/store';
import type { SessionWhere } from '../client/prisma-like.js';
import { sessionRecordFromModelRow } from '@sessauth/core/store';
import type { ClientContext } from './store-context.js';

/**
 * The admin listing: newest first (created_at desc, id desc), keyset-paginated so a deep page
 * costs the same as the first; the (created_at, id) index serves it. One row more than `limit`
 * is read to know whether another page exists.
 */
export async function listSessionsForAdmin(ctx: ClientContext, query: AdminSessionQuery): Promise<AdminSessionPage> {
  const limit = Number.isFinite(query.limit) ? Math.max(1, Math.floor(query.limit)) : 1;
  const rows = await ctx.client.sessauthSession.findMany({
    where: { AND: filters(query) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  const sessions = rows.slice(0, limit).map(sessionRecordFromModelRow);
  const last = sessions[sessions.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeAdminCursor({ createdAt: last.createdAt, id: last.id }) : null;
  return { sessions, nextCursor };
}

/** The page's conditions; a cursor that is not one of ours is bad client input (400), not a fault. */
function filters(query: AdminSessionQuery): SessionWhere[] {
  const nowMs = query.now.getTime();
  const where: SessionWhere[] = [];
  if (query.userId !== undefined) where.push({ userId: query.userId });
  if (query.status === 'active') where.push({ expiredAt: null, expiresAt: { gt: nowMs } });
  if (query.status === 'revoked') where.push({ OR: [{ expiredAt: { not: null } }, { expiresAt: { lte: nowMs } }] });
  if (query.after !== undefined) {
    const cursor = decodeAdminCursor(query.after);
    if (cursor === null) throw new SessauthError('invalid_request');
    const createdAt = cursor.createdAt.getTime();
    where.push({ OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: cursor.id } }] });
  }
  return where;
}
