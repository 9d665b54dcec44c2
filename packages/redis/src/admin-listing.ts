import { SessauthError } from '@sessauth/core';
import { decodeAdminCursor, encodeAdminCursor, type AdminSessionPage, type AdminSessionQuery, type SessionRecord } from '@sessauth/core/store';
import { hashToRecord } from './session-codec.js';
import { readOwner, type StoreContext } from './store-context.js';

/** Runs one bounded step of a multi-step operation (the store's timeout guard). */
export type Guarded = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

interface AdminCursor {
  readonly createdAt: Date;
  readonly id: string;
}

/**
 * The admin listing, newest first (createdAt desc, then id desc byte-wise, which is
 * Redis' own order of equal scores), keyset-paginated by (createdAt, id). With a
 * user it walks that user's index of all sessions (one slot); without, the global
 * index, resolving each id's owner through its pointer. Rows are read in batches
 * (about three round trips each) until `limit + 1` pass the filters. Ids whose hash
 * is gone (TTL) are dropped from the index walked.
 */
export async function listSessionsForAdmin(ctx: StoreContext, query: AdminSessionQuery, guarded: Guarded): Promise<AdminSessionPage> {
  const limit = Math.max(1, Math.floor(query.limit));
  let cursor: AdminCursor | null = null;
  if (query.after !== undefined) {
    cursor = decodeAdminCursor(query.after);
    if (cursor === null) throw new SessauthError('invalid_request');
  }
  const { userId } = query;
  const nowMs = query.now.getTime();
  const keep = (record: SessionRecord): boolean => {
    if (query.status === undefined) return true;
    const active = record.expiredAt === null && record.expiresAt.getTime() > nowMs;
    return active === (query.status === 'active');
  };
  const index = userId === undefined ? ctx.keys.allSessions : ctx.keys.allIndex(userId);
  const load = userId === undefined ? (ids: string[]) => loadAnyUser(ctx, ids) : (ids: string[]) => loadOfUser(ctx, userId, ids);

  return guarded('listSessionsForAdmin', async () => {
    const rows = await walk(ctx, index, cursor, limit + 1, load, keep);
    const sessions = rows.slice(0, limit);
    const last = sessions[sessions.length - 1];
    const nextCursor = rows.length > limit && last !== undefined ? encodeAdminCursor({ createdAt: last.createdAt, id: last.id }) : null;
    return { sessions, nextCursor };
  });
}

async function walk(
  ctx: StoreContext,
  index: string,
  cursor: AdminCursor | null,
  wanted: number,
  load: (ids: string[]) => Promise<(SessionRecord | null)[]>,
  keep: (record: SessionRecord) => boolean,
): Promise<SessionRecord[]> {
  const rows: SessionRecord[] = [];
  const gone: string[] = [];
  const cursorMs = cursor?.createdAt.getTime();
  const batch = Math.min(500, Math.max(32, wanted * 2));
  for (let offset = 0; rows.length < wanted; ) {
    const flat = await ctx.client.zrevrangebyscore(index, cursorMs ?? '+inf', '-inf', 'WITHSCORES', 'LIMIT', offset, batch);
    const ids: string[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const id = flat[i] as string;
      // Equal createdAt: only ids below the cursor's come after it.
      if (cursor !== null && Number(flat[i + 1]) === cursorMs && compareBytes(id, cursor.id) >= 0) continue;
      ids.push(id);
    }
    const records = await load(ids);
    records.forEach((record, i) => {
      if (record === null) gone.push(ids[i] as string);
      else if (rows.length < wanted && keep(record)) rows.push(record);
    });
    if (flat.length < batch * 2) break;
    offset += batch;
  }
  // After the walk: removing entries during it would shift the offsets.
  if (gone.length > 0) await ctx.client.zrem(index, ...gone);
  return rows;
}

function loadOfUser(ctx: StoreContext, userId: string, ids: string[]): Promise<(SessionRecord | null)[]> {
  return Promise.all(ids.map(async (id) => hashToRecord(await ctx.client.hgetall(ctx.keys.session(userId, id)))));
}

function loadAnyUser(ctx: StoreContext, ids: string[]): Promise<(SessionRecord | null)[]> {
  return Promise.all(
    ids.map(async (id) => {
      const owner = await readOwner(ctx, id);
      return owner === null ? null : hashToRecord(await ctx.client.hgetall(ctx.keys.session(owner, id)));
    }),
  );
}

/** Redis orders equal scores by the members' bytes (UTF-8), not by UTF-16 units. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
