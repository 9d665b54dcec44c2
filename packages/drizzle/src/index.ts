// The public API of @sessauth/drizzle. The tables live on the dialect subpaths
// (@sessauth/drizzle/pg, /mysql, /sqlite); everything not listed here is internal.

export { DrizzleSessionStore, createDrizzleStore } from './store/drizzle-session-store.js';
export type { DrizzleStoreOptions } from './store/store-context.js';
export { DrizzleRateLimitStore, type DrizzleRateLimitStoreOptions } from './rate-limit/drizzle-rate-limit-store.js';
export type { DrizzleDatabase, SessauthTables } from './store/resolve-engine.js';
export { StoreCollationError } from './store/collation-error.js';
