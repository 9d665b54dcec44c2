import { MemoryRateLimitStore, MemorySessionStore, type RateLimitStore, type SessionStore } from '@sessauth/core';

export interface ExampleStores {
  readonly sessionStore: SessionStore;
  readonly rateLimitStore: RateLimitStore;
  close(): Promise<void>;
}

/**
 * Picks the store from `SESSAUTH_STORE`: `memory:`, `sqlite:<path>` (embedded),
 * `postgres://…`, `mysql://…`, `redis://…`.
 */
export async function storesFromUrl(url: string): Promise<ExampleStores> {
  if (url === 'memory:' || url === 'memory') {
    return { sessionStore: new MemorySessionStore(), rateLimitStore: new MemoryRateLimitStore(), close: async () => {} };
  }
  throw new Error(`SESSAUTH_STORE: unsupported store URL scheme in "${url.split(':')[0]}:"`);
}
