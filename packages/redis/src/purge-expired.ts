import type { Guarded } from './admin-listing.js';
import { trimActivity } from './activity.js';
import { runScript } from './script-runner.js';
import { SCRIPTS } from './scripts/session-scripts.js';
import { readOwner, type StoreContext } from './store-context.js';

const BATCH = 200;

/**
 * Deletes sessions revoked before `now` or past their natural expiry before `now`,
 * walking the global index with ZSCAN in batches (each batch bounded by the store's
 * timeout). TTLs remove most rows on their own; this removes what they have not
 * yet, and drops index entries and owner pointers of sessions already gone.
 * Per batch: one ZSCAN, the owners' pointers, one purge script per user (one slot
 * each), then the global index and pointer clean-up.
 */
export async function purgeExpired(ctx: StoreContext, now: Date, guarded: Guarded): Promise<number> {
  let scan = '0';
  let deleted = 0;
  do {
    deleted += await guarded('purgeExpired', async () => {
      const [next, flat] = await ctx.client.zscan(ctx.keys.allSessions, scan, 'COUNT', BATCH);
      scan = next;
      const ids = flat.filter((_, i) => i % 2 === 0);
      return purgeBatch(ctx, [...new Set(ids)], now);
    });
  } while (scan !== '0');
  return deleted;
}

async function purgeBatch(ctx: StoreContext, ids: string[], now: Date): Promise<number> {
  const { client, keys } = ctx;
  const owners = await Promise.all(ids.map((id) => readOwner(ctx, id)));
  const byUser = new Map<string, string[]>();
  const orphans: string[] = [];
  ids.forEach((id, i) => {
    const owner = owners[i];
    if (owner === null || owner === undefined) orphans.push(id);
    else byUser.set(owner, [...(byUser.get(owner) ?? []), id]);
  });

  const replies = await Promise.all(
    [...byUser].map(([userId, list]) =>
      runScript(client, SCRIPTS.purgeUser, [keys.activeIndex(userId), keys.allIndex(userId)], [keys.sessionBase(userId), now.getTime(), ...list]),
    ),
  );
  // The activity lists of the batch's sessions lose their entries past retention (a list
  // whose newest entry is past it has expired on its own).
  await Promise.all([...byUser].map(([userId, list]) => trimActivity(ctx, userId, list, now)));
  let deleted = 0;
  const withPointer: string[] = [];
  for (const reply of replies) {
    const [removed, gone] = Array.isArray(reply) ? (reply as unknown[][]) : [];
    deleted += removed?.length ?? 0;
    for (const id of [...(removed ?? []), ...(gone ?? [])]) withPointer.push(String(id));
  }
  const dropped = [...orphans, ...withPointer];
  if (dropped.length === 0) return deleted;
  // One key per DEL: owner pointers live in different cluster slots.
  await Promise.all([client.zrem(keys.allSessions, ...dropped), ...withPointer.map((id) => client.del(keys.owner(id)))]);
  for (const id of dropped) ctx.owners.delete(id);
  return deleted;
}
