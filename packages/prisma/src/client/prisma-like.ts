/**
 * The part of a generated Prisma Client the stores call, typed by structure: the client is
 * generated in the host's project from its schema, to which the host added the models of
 * `prisma/<provider>/sessauth.prisma`. Any client generated with those models (Prisma 7,
 * `prisma-client` or `prisma-client-js` generator) fits.
 */

/** `SessauthSession` as Prisma returns it: BIGINT instants come back as bigint. */
export interface SessionModel {
  id: string;
  userId: string;
  refreshJti: string;
  securityStamp: string;
  createdAt: bigint | number;
  lastActivityAt: bigint | number;
  expiresAt: bigint | number;
  expiredAt: bigint | number | null;
  ipAddress: string | null;
  userAgent: string | null;
  browser: string | null;
  location: string | null;
  name: string | null;
  /** Step 0004 (RFC 9470 step-up); null on older rows: `createdAt`. */
  authTime?: bigint | number | null;
  /** A JSON array of RFC 8176 method names; null on older rows: []. */
  amr?: string | null;
  acr?: string | null;
  /** Step 0005 (RFC 9449 DPoP); null: not bound. */
  dpopJkt?: string | null;
  /** Step 0008 (DBSC): the browser's public JWK as JSON; null: not bound. */
  deviceBoundKey?: string | null;
}

type Instant = number | bigint;
type InstantFilter = Instant | { gt?: Instant; lt?: Instant; lte?: Instant };
type NullableInstantFilter = Instant | null | { lt?: Instant; not?: null };

/** The filters the stores build (a subset of Prisma's `SessauthSessionWhereInput`). */
export interface SessionWhere {
  id?: string | { in?: string[]; lt?: string; not?: string };
  userId?: string;
  refreshJti?: string;
  securityStamp?: string;
  createdAt?: InstantFilter;
  lastActivityAt?: InstantFilter;
  expiresAt?: InstantFilter;
  expiredAt?: NullableInstantFilter;
  deviceBoundKey?: null;
  OR?: SessionWhere[];
  AND?: SessionWhere[];
}

export interface SessionData {
  refreshJti?: string;
  lastActivityAt?: Instant;
  expiredAt?: Instant;
  name?: string;
  authTime?: Instant;
  amr?: string;
  acr?: string | null;
  deviceBoundKey?: string;
}

type Order = 'asc' | 'desc';

/** `prisma.sessauthSession`. */
export interface SessionDelegate {
  create(args: { data: Omit<SessionModel, 'name'> & { name?: string | null } }): PromiseLike<unknown>;
  findUnique(args: { where: { id: string } }): PromiseLike<SessionModel | null>;
  /** Whole rows only: a generated delegate's `select` typing does not fit a structural type. */
  findMany(args: {
    where: SessionWhere;
    orderBy?: Array<{ createdAt?: Order; id?: Order }> | { expiredAt?: Order; expiresAt?: Order };
    take?: number;
  }): PromiseLike<SessionModel[]>;
  updateMany(args: { where: SessionWhere; data: SessionData }): PromiseLike<{ count: number }>;
  /** PostgreSQL and SQLite only (a MySQL client has none). */
  updateManyAndReturn?(args: { where: SessionWhere; data: SessionData }): PromiseLike<SessionModel[]>;
  deleteMany(args: { where: SessionWhere }): PromiseLike<{ count: number }>;
}

/** `prisma.sessauthRateLimit`. */
export interface RateLimitDelegate {
  findUnique(args: { where: { counterKey: string } }): PromiseLike<{ counterKey: string; count: number; resetAt: Instant } | null>;
  findMany(args: { where: { resetAt: { lte: Instant } }; take: number }): PromiseLike<Array<{ counterKey: string }>>;
  deleteMany(args: { where: { counterKey: { in: string[] }; resetAt: { lte: Instant } } }): PromiseLike<{ count: number }>;
}

/** What the stores run inside `$transaction(async (tx) => ...)`. */
export interface SessauthPrismaTransaction {
  sessauthSession: SessionDelegate;
  sessauthRateLimit: RateLimitDelegate;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/**
 * Bounds of an interactive transaction. The stores also pass `isolationLevel: 'ReadCommitted'`
 * on MySQL; it is left out of this type because a SQLite client's types accept only
 * `'Serializable'`, and the one structural type must fit every provider's client.
 */
export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/** A Prisma Client generated with the sessauth models. */
export interface SessauthPrismaClient extends SessauthPrismaTransaction {
  $transaction<R>(work: (tx: SessauthPrismaTransaction) => Promise<R>, options?: TransactionOptions): PromiseLike<R>;
}
