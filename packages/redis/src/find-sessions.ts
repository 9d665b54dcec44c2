import type { SessionRecord } from '@sessauth/core';
import type { RedisLike } from './redis-like.js';
import { hashToRecord } from './session-codec.js';
import type { StoreContext } from './store-context.js';

type Read = readonly ['get' | 'hgetall', string];

/**
 * Many `findSession`s in as few round trips as one: the hashes of the sessions whose owner
 * is known in process, in one pipeline; for the rest (owner not cached, or the cached owner
 * no longer holds the hash) the owner keys in one pipeline, then their hashes in one more.
 * Each read is sent after this call started; the owner cache holds only ownership, which
 * never changes, never a session's state.
 */
export async function findSessions(ctx: StoreContext, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const found = new Map<string, SessionRecord>();
  const lookUp: Array<{ id: string; cached: string | undefined }> = [];
  const known: Array<{ id: string; owner: string }> = [];
  for (const id of new Set(ids)) {
    const owner = ctx.owners.get(id);
    if (owner === undefined) lookUp.push({ id, cached: undefined });
    else known.push({ id, owner });
  }
  const hashes = await pipelined(
    ctx.client,
    known.map(({ id, owner }) => ['hgetall', ctx.keys.session(owner, id)] as const),
  );
  known.forEach(({ id, owner }, index) => {
    const record = hashToRecord(hashes[index] as Record<string, string>);
    if (record === null) lookUp.push({ id, cached: owner });
    else found.set(id, record);
  });
  if (lookUp.length === 0) return found;

  const owners = await pipelined(
    ctx.client,
    lookUp.map(({ id }) => ['get', ctx.keys.owner(id)] as const),
  );
  const moved: Array<{ id: string; owner: string }> = [];
  lookUp.forEach(({ id, cached }, index) => {
    const owner = owners[index] as string | null;
    // As `readOwner`: refresh the cache; an owner unchanged from a cached one that held no hash means no session.
    if (owner === null) ctx.owners.delete(id);
    else ctx.owners.set(id, owner);
    if (owner !== null && owner !== cached) moved.push({ id, owner });
  });
  const late = await pipelined(
    ctx.client,
    moved.map(({ id, owner }) => ['hgetall', ctx.keys.session(owner, id)] as const),
  );
  moved.forEach(({ id }, index) => {
    const record = hashToRecord(late[index] as Record<string, string>);
    if (record !== null) found.set(id, record);
  });
  return found;
}

/**
 * The replies of `reads`, in order, all sent at once as plain commands: the client writes them
 * back to back without waiting for a reply (on one server the wire is one pipeline already; an
 * explicit ioredis `Pipeline` measured slower at the small batches of a few concurrent requests,
 * bench/results/coalesced-reads.md). On a cluster each command is routed on its own, so ioredis
 * follows `MOVED` and `ASK` for each, and no command waits on another: a `Cluster` pipeline is
 * not used, because ioredis (5.x) can split one over two connections while its slot map has no
 * usable owner (a failover), after which that connection's replies go to the wrong commands
 * (`slot-pipeline.ts`). Any command's error rejects the whole read (the store fails closed).
 */
function pipelined(client: RedisLike, reads: readonly Read[]): Promise<unknown[]> {
  return Promise.all(reads.map(([command, key]) => (command === 'get' ? client.get(key) : client.hgetall(key))));
}
