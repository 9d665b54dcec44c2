import type { Logger } from '@sessauth/core';
import type { RedisDurability } from './durability.js';
import type { KeyLayout } from './keys.js';
import type { OwnerCache } from './owner-cache.js';
import type { RedisLike } from './redis-like.js';

/** What the store's operations share. */
export interface StoreContext {
  readonly client: RedisLike;
  readonly keys: KeyLayout;
  readonly owners: OwnerCache;
  /** How long revoked and ended sessions stay visible to the admin listing. */
  readonly retentionMs: number;
  /** Replicas every state change waits for (`WAIT`); null: none (the default). */
  readonly durability: RedisDurability | null;
  readonly logger: Logger;
}

/** The pointer key only (refreshing the cache). */
export async function readOwner(ctx: StoreContext, sessionId: string): Promise<string | null> {
  const owner = await ctx.client.get(ctx.keys.owner(sessionId));
  if (owner === null) ctx.owners.delete(sessionId);
  else ctx.owners.set(sessionId, owner);
  return owner;
}
