import { StoreUnavailableError } from '@sessauth/core';
import type { NewSession, SessionRecord } from '@sessauth/core/store';
import { runWriteScript } from './durability.js';
import { SCRIPTS } from './scripts/session-scripts.js';
import type { StoreContext } from './store-context.js';

/** The record a fresh session has, as a deep copy of the input. */
export function copyNewRecord(session: NewSession): SessionRecord {
  return {
    ...session,
    createdAt: new Date(session.createdAt.getTime()),
    lastActivityAt: new Date(session.createdAt.getTime()),
    expiresAt: new Date(session.expiresAt.getTime()),
    expiredAt: null,
    location: session.location === null ? null : { ...session.location },
    name: null,
    authTime: new Date((session.authTime ?? session.createdAt).getTime()),
    amr: [...(session.amr ?? [])],
    acr: session.acr ?? null,
    ...((session.dpopJkt ?? null) === null ? {} : { dpopJkt: session.dpopJkt }),
  };
}

/**
 * On a single server, one script in one round trip writes the owner pointer, inserts the hash
 * and enforces the cap, and adds the admin index entry, atomically (CREATE_SESSION_ONE_TRIP_LUA).
 *
 * On a cluster, where those keys live in different slots, three writes in three rounds, in this
 * order: the owner pointer (its own slot), the user's script that inserts the hash and enforces
 * the cap atomically, then the admin index entry (its own slot). In that order an id in the
 * admin index always had its hash written first, so a reader that finds the hash gone knows the
 * session was purged or expired and may drop the entry. A failure half-way leaves only a pointer
 * without a hash (read as absent; its TTL removes it) or a session missing from the cross-user
 * admin view (the per-user view still has it).
 */
export async function createSession(
  ctx: StoreContext,
  record: SessionRecord,
  fields: readonly string[],
  maxActiveSessions: number,
): Promise<SessionRecord> {
  const { client, keys, retentionMs } = ctx;
  const { id, userId } = record;
  const createdAt = record.createdAt.getTime();
  const ttlMs = Math.max(0, record.expiresAt.getTime() - createdAt) + retentionMs;
  const createArgs = [id, createdAt, maxActiveSessions, ttlMs, retentionMs, keys.sessionBase(userId), ...fields];
  const userKeys = [keys.session(userId, id), keys.activeIndex(userId), keys.allIndex(userId)];
  let reply: unknown;
  if (client.isCluster !== true) {
    reply = await runWriteScript(
      ctx,
      'createSession',
      SCRIPTS.createSessionOneTrip,
      [keys.owner(id), ...userKeys, keys.allSessions],
      [userId, ttlMs, ...createArgs],
    ).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('SESSAUTH_OWNER')) throw idInUse();
      throw error;
    });
    ctx.owners.set(id, userId);
  } else {
    const owner = await runWriteScript(ctx, 'createSession', SCRIPTS.claimOwner, [keys.owner(id)], [userId, ttlMs]);
    if (owner !== userId) throw idInUse();
    reply = await runWriteScript(ctx, 'createSession', SCRIPTS.createSession, userKeys, createArgs);
    ctx.owners.set(id, userId);
    await client.zadd(keys.allSessions, 'NX', createdAt, id);
  }
  // The newcomer itself is revoked when concurrent logins left it among the oldest.
  const revokedItself = Array.isArray(reply) && Number(reply[1]) === 1;
  return revokedItself ? { ...record, expiredAt: new Date(createdAt) } : record;
}

function idInUse(): StoreUnavailableError {
  return new StoreUnavailableError('redis store: createSession: session id already in use');
}
