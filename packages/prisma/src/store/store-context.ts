import type { SessauthPrismaClient, TransactionOptions } from '../client/prisma-like.js';
import { mysqlSql } from '../provider/mysql.js';
import { postgresqlSql } from '../provider/postgresql.js';
import type { PrismaProvider, ProviderSql, RawNames } from '../provider/provider-sql.js';
import { sqliteSql } from '../provider/sqlite.js';
import { operationTimeout } from './guard.js';

const PROVIDERS: Readonly<Record<PrismaProvider, ProviderSql>> = { postgresql: postgresqlSql, mysql: mysqlSql, sqlite: sqliteSql };

// Derived names must stay under PostgreSQL's 63-character limit (the Kysely store's rule).
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

export interface ClientOptions {
  /** The `provider` of your schema's datasource block. */
  provider: PrismaProvider;
  /**
   * PostgreSQL: the schema the tables are in, when it is not on the connection's search_path (the
   * `schema` you gave `PrismaPg`). Prisma's model queries already name it; the store's few raw
   * statements (locks, the counter upsert, the start-up check) need it too. @default none (search_path)
   */
  schema?: string;
  /**
   * Upper bound of one store call, every statement, retry and wait for a connection or a
   * transaction included; past it the call rejects with `StoreUnavailableError` (503). @default 5000
   */
  operationTimeoutMs?: number;
  /** Rows per DELETE in `purgeExpired`. @default 1000 */
  purgeBatchSize?: number;
  /**
   * Keep the activity history (the core's JWT_SESSION_ACTIVITY) in `<tableName>_activity`
   * (the model of `sessauth-activity.prisma` and migration 0004_sessauth_session_activity): the
   * store then has `appendActivity` and `listActivity`, `checkSchema` checks that table, and
   * `purgeExpired` deletes entries past their retention. Off, the table is never touched. @default false
   */
  activity?: boolean;
  /**
   * Keep the Shared Signals transmitter's outbox (the core's JWT_SSF_TRANSMITTER, which refuses a
   * store without it) in `<tableName>_security_event` (the model of `sessauth-security-event.prisma`
   * and migration 0005_sessauth_security_event_outbox): the store then has `holdSecurityEvents`,
   * `releaseSecurityEvents`, `claimSecurityEvents` and `settleSecurityEvent`, and `checkSchema`
   * checks that table. Off, the table is never touched. @default false
   */
  securityEventOutbox?: boolean;
}

/** What every operation of a store needs. */
export interface ClientContext {
  readonly client: SessauthPrismaClient;
  readonly sql: ProviderSql;
  readonly names: RawNames;
  readonly plain: {
    readonly session: string;
    readonly userLock: string;
    readonly rateLimit: string;
    readonly activity: string;
    readonly securityEvent: string;
  };
  /** The activity history is kept (`activity` option). */
  readonly activity: boolean;
  /** The Shared Signals outbox is kept (`securityEventOutbox` option). */
  readonly securityEventOutbox: boolean;
  readonly timeoutMs: number;
  readonly purgeBatchSize: number;
  /** Each interactive transaction: bounded by the call's deadline, at the provider's isolation. */
  readonly transaction: TransactionOptions;
}

export function identifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`@sessauth/prisma: ${what} must match ${IDENTIFIER.source}, got ${JSON.stringify(name)}`);
  return name;
}

/**
 * Checks the client and the options once. The client must have the sessauth models (the
 * delegate `model` names), and when it says which provider it was generated for, that must be
 * the one given: raw SQL of another engine would fail on every call.
 */
export function createClientContext(
  client: SessauthPrismaClient,
  options: ClientOptions,
  tables: { session: string; rateLimit: string },
  model: 'sessauthSession' | 'sessauthRateLimit',
): ClientContext {
  const sql = PROVIDERS[options.provider];
  if (sql === undefined)
    throw new TypeError(`@sessauth/prisma: provider must be postgresql, mysql or sqlite, got ${JSON.stringify(options.provider)}`);
  const generatedFor = (client as unknown as { _activeProvider?: unknown })._activeProvider;
  if (typeof generatedFor === 'string' && generatedFor !== options.provider) {
    throw new TypeError(
      `@sessauth/prisma: provider is ${JSON.stringify(options.provider)} but the client was generated for ${JSON.stringify(generatedFor)}`,
    );
  }
  if (typeof (client as unknown as Record<string, { findUnique?: unknown } | undefined>)[model]?.findUnique !== 'function') {
    throw new TypeError(`@sessauth/prisma: the client has no ${model}: add the models of sessauth.prisma to your schema and run prisma generate`);
  }
  if (options.schema !== undefined && options.provider !== 'postgresql') throw new TypeError('@sessauth/prisma: schema is for PostgreSQL only');
  const plain = {
    session: identifier(tables.session, 'tableName'),
    userLock: `${tables.session}_user_lock`,
    activity: `${tables.session}_activity`,
    securityEvent: `${tables.session}_security_event`,
    rateLimit: identifier(tables.rateLimit, 'tableName'),
  };
  const prefix = options.schema === undefined ? '' : `${sql.quote(identifier(options.schema, 'schema'))}.`;
  const purgeBatchSize = options.purgeBatchSize ?? 1000;
  if (!Number.isInteger(purgeBatchSize) || purgeBatchSize < 1) throw new TypeError('@sessauth/prisma: purgeBatchSize must be a positive integer');
  const timeoutMs = operationTimeout(options.operationTimeoutMs);
  return {
    client,
    sql,
    plain,
    names: {
      session: prefix + sql.quote(plain.session),
      userLock: prefix + sql.quote(plain.userLock),
      rateLimit: prefix + sql.quote(plain.rateLimit),
      activity: prefix + sql.quote(plain.activity),
      securityEvent: prefix + sql.quote(plain.securityEvent),
      sessionTable: plain.session,
      schema: options.schema,
    },
    timeoutMs,
    purgeBatchSize,
    activity: options.activity === true,
    securityEventOutbox: options.securityEventOutbox === true,
    transaction: transactionOptions(timeoutMs, sql),
  };
}

/**
 * Prisma's own bounds of a transaction, at the call's (its wait for a connection, its length),
 * and the provider's isolation level, which the structural type leaves out (see TransactionOptions).
 */
function transactionOptions(timeoutMs: number, sql: ProviderSql): TransactionOptions {
  const options: TransactionOptions & { isolationLevel?: string } = { maxWait: timeoutMs, timeout: timeoutMs };
  if (sql.isolationLevel !== undefined) options.isolationLevel = sql.isolationLevel;
  return options;
}
