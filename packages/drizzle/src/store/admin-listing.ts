import { SessauthError } from '@sessauth/core';
import { type AdminSessionPage, type AdminSessionQuery, decodeAdminCursor, encodeAdminCursor } from '@sessauth/core/store';
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { SessionRow } from './session-row.js';
import { sessionRecordFromModelRow } from '@sessauth/core/store';
import type { StoreContext } from './store-context.js';
import type { SessionColumns } from './tables.js';

/**
 * The admin listing: newest first (created_at desc, id desc), keyset-paginated so a deep page
 * costs the same as the first; the (created_at, id) index serves it. One row more than `limit`
 * is read to know whether another page exists.
 */
export async function listSessionsForAdmin(ctx: StoreContext, query: AdminSessionQuery): Promise<AdminSessionPage> {
  const limit = Number.isFinite(query.limit) ? Math.max(1, Math.floor(query.limit)) : 1;
  const { t } = ctx;
  const rows = await ctx.engine.db
    .select<SessionRow>()
    .from(t)
    .where(and(...filters(t, query)))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit + 1);
  const sessions = rows.slice(0, limit).map(sessionRecordFromModelRow);
  const last = sessions[sessions.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeAdminCursor({ createdAt: last.createdAt, id: last.id }) : null;
  return { sessions, nextCursor };
}

/** The page's conditions; a cursor that is not one of ours is bad client input (400), not a fault. */
function filters(t: SessionColumns, query: AdminSessionQuery): Array<SQL | undefined> {
  const nowMs = query.now.getTime();
  const where: Array<SQL | undefined> = [];
  if (query.userId !== undefined) where.push(eq(t.userId, query.userId));
  if (query.status === 'active') where.push(isNull(t.expiredAt), gt(t.expiresAt, nowMs));
  if (query.status === 'revoked') where.push(or(isNotNull(t.expiredAt), lte(t.expiresAt, nowMs)));
  if (query.after !== undefined) {
    const cursor = decodeAdminCursor(query.after);
    if (cursor === null) throw new SessauthError('invalid_request');
    const createdAt = cursor.createdAt.getTime();
    where.push(or(lt(t.createdAt, createdAt), and(eq(t.createdAt, createdAt), lt(t.id, cursor.id))));
  }
  return where;
}
