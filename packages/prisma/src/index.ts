// The public API of @sessauth/prisma. The models and migrations are files of the package
// (prisma/<provider>/); everything not listed here is internal.

export { PrismaSessionStore, createPrismaStore, type PrismaStoreOptions } from './store/prisma-session-store.js';
export { PrismaRateLimitStore, type PrismaRateLimitStoreOptions } from './rate-limit/prisma-rate-limit-store.js';
export type { PrismaProvider } from './provider/provider-sql.js';
export type {
  SessauthPrismaClient,
  SessauthPrismaTransaction,
  SessionDelegate,
  RateLimitDelegate,
  SessionModel,
  SessionWhere,
  SessionData,
  TransactionOptions,
} from './client/prisma-like.js';
export { StoreCollationError } from './store/collation-error.js';
