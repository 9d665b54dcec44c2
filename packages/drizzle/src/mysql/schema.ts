// @sessauth/drizzle/mysql: the sessauth tables as drizzle mysql-core tables (MySQL 8 and
// MariaDB). Re-export them from your schema and drizzle-kit adds them to your migrations.
// The layout is the one `@sessauth/kysely` migrates, so a database can move between stores.
import { bigint, customType, index, int, mysqlTable } from 'drizzle-orm/mysql-core';
import { type SessauthTableOptions, tableNames } from '../schema/table-names.js';

export { DEFAULT_RATE_LIMIT_TABLE, DEFAULT_SESSION_TABLE, type SessauthTableOptions } from '../schema/table-names.js';

export interface SessauthMysqlTableOptions extends SessauthTableOptions {
  /**
   * The binary collation of every text column: ids, jtis and user ids must compare byte for
   * byte ('abc' is not 'ABC', nor 'abc '). MariaDB has no `utf8mb4_0900_bin`: pass
   * `'utf8mb4_nopad_bin'` there. @default 'utf8mb4_0900_bin' (MySQL 8+)
   */
  collation?: string;
}

export const DEFAULT_MYSQL_COLLATION = 'utf8mb4_0900_bin';
const BINARY_COLLATION = /^utf8mb4_[a-z0-9_]*bin$/;

/**
 * drizzle has no column collation and no table options, so the type carries both the
 * character set (emoji need utf8mb4) and the collation; drizzle-kit writes it as is.
 */
function textTypes(collation: string) {
  if (!BINARY_COLLATION.test(collation)) {
    throw new TypeError(`@sessauth/drizzle: collation must be a binary utf8mb4 collation (utf8mb4_..._bin), got ${JSON.stringify(collation)}`);
  }
  const typed = (sqlType: string) =>
    customType<{ data: string; driverData: string }>({ dataType: () => `${sqlType} character set utf8mb4 collate ${collation}` });
  return { varchar: (name: string, length: number) => typed(`varchar(${length})`)(name), text: (name: string) => typed('text')(name) };
}

/** A UTC instant as BIGINT epoch milliseconds, read back as a JS number. */
const millis = (name: string) => bigint(name, { mode: 'number' });

/** Builds the tables under your own names and collation (the defaults are exported below). */
export function sessauthMysqlTables(options: SessauthMysqlTableOptions = {}) {
  const names = tableNames(options);
  const { varchar, text } = textTypes(options.collation ?? DEFAULT_MYSQL_COLLATION);
  const session = mysqlTable(
    names.session,
    {
      id: varchar('id', 128).primaryKey(),
      userId: varchar('user_id', 255).notNull(),
      refreshJti: varchar('refresh_jti', 128).notNull(),
      securityStamp: varchar('security_stamp', 255).notNull(),
      createdAt: millis('created_at').notNull(),
      lastActivityAt: millis('last_activity_at').notNull(),
      expiresAt: millis('expires_at').notNull(),
      /** Set when revoked; null while the session may be active. */
      expiredAt: millis('expired_at'),
      ipAddress: varchar('ip_address', 45),
      userAgent: varchar('user_agent', 512),
      browser: varchar('browser', 255),
      /** The `Location` object as JSON text. */
      location: text('location'),
      /** The device name its user gave it; null until named. */
      name: varchar('name', 64),
      /** When the user last proved who they are (RFC 9470); null on older rows: `createdAt`. */
      authTime: millis('auth_time'),
      /** RFC 8176 method names as a JSON array; null on older rows: []. */
      amr: varchar('amr', 1024),
      acr: varchar('acr', 255),
      /** The DPoP key thumbprint the session is bound to (RFC 9449); null: not bound. */
      dpopJkt: varchar('dpop_jkt', 64),
      /** The DBSC public key (JWK JSON) the session is bound to (JWT_DEVICE_BOUND_COOKIES); null: not bound. */
      deviceBoundKey: text('device_bound_key'),
    },
    (t) => [
      index(names.index.userActive).on(t.userId, t.expiredAt, t.createdAt, t.id),
      index(names.index.expiredAt).on(t.expiredAt),
      index(names.index.expiresAt).on(t.expiresAt),
      index(names.index.createdId).on(t.createdAt, t.id),
    ],
  );
  /**
   * One row per user, locked by every login of that user (an upsert takes its row lock,
   * also for a first login): MySQL has no transaction-scoped advisory lock.
   */
  const userLock = mysqlTable(names.userLock, { userId: varchar('user_id', 255).primaryKey() });
  const rateLimit = mysqlTable(
    names.rateLimit,
    {
      /** SHA-256 (base64url) of the limiter's key: no raw IP or username at rest. */
      counterKey: varchar('counter_key', 64).primaryKey(),
      count: int('count').notNull(),
      resetAt: millis('reset_at').notNull(),
    },
    (t) => [index(names.index.resetAt).on(t.resetAt)],
  );
  /** The activity history (JWT_SESSION_ACTIVITY; the store's `activity` option): append-only entries, bounded per session. */
  const activity = mysqlTable(
    names.activity,
    {
      id: varchar('id', 64).primaryKey(),
      sessionId: varchar('session_id', 128).notNull(),
      userId: varchar('user_id', 255).notNull(),
      kind: varchar('kind', 32).notNull(),
      at: millis('at').notNull(),
      expiresAt: millis('expires_at').notNull(),
      ipAddress: varchar('ip_address', 45),
      browser: varchar('browser', 255),
      /** The `Location` object as JSON text. */
      location: text('location'),
      detail: varchar('detail', 512),
    },
    (t) => [index(names.index.activitySession).on(t.sessionId, t.id), index(names.index.activityExpires).on(t.expiresAt)],
  );
  /**
   * The Shared Signals transmitter's outbox (JWT_SSF_TRANSMITTER; the store's `securityEventOutbox`
   * option): one row per signed SET and stream until a receiver accepts it.
   */
  const securityEvent = mysqlTable(
    names.securityEvent,
    {
      /** The SET's `jti`. */
      id: varchar('id', 64).primaryKey(),
      batchId: varchar('batch_id', 64).notNull(),
      streamId: varchar('stream_id', 64).notNull(),
      /** The signed SET (compact JWS), sent byte for byte on every attempt. */
      token: text('token').notNull(),
      userId: varchar('user_id', 255),
      sessionId: varchar('session_id', 128),
      /** held, ready or dead. */
      state: varchar('state', 8).notNull(),
      attempts: int('attempts').notNull(),
      /** A retry's due time, a claim's lease or a hold's deadline. */
      nextAttemptAt: millis('next_attempt_at').notNull(),
      createdAt: millis('created_at').notNull(),
      lastError: varchar('last_error', 255),
    },
    (t) => [index(names.index.securityEventDue).on(t.nextAttemptAt), index(names.index.securityEventBatch).on(t.batchId)],
  );
  return { session, userLock, rateLimit, activity, securityEvent };
}

/** The tables of one `sessauthMysqlTables` call: pass them to the stores when you changed a name or the collation. */
export type SessauthMysqlTables = ReturnType<typeof sessauthMysqlTables>;

const defaults = sessauthMysqlTables();
/** `sessauth_session`: one row per logged-in device. */
export const sessauthSession = defaults.session;
/** `sessauth_session_user_lock`: serialises the logins of one user. */
export const sessauthSessionUserLock = defaults.userLock;
/** `sessauth_rate_limit`: the fixed-window counters of the rate limiter. */
export const sessauthRateLimit = defaults.rateLimit;
