// @sessauth/drizzle/sqlite: the sessauth tables as drizzle sqlite-core tables. Re-export them
// from your schema and drizzle-kit adds them to your migrations. The layout is the one
// `@sessauth/kysely` migrates, declared types included, so a database can move between the
// two stores and `drizzle-kit push` finds nothing to change on tables Kysely created.
import { customType, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { type SessauthTableOptions, tableNames } from '../schema/table-names.js';

export { DEFAULT_RATE_LIMIT_TABLE, DEFAULT_SESSION_TABLE, type SessauthTableOptions } from '../schema/table-names.js';

// SQLite only keeps a type's affinity; these spell the declared types as `@sessauth/kysely`
// does (`varchar(n)`, `bigint`), which sqlite-core's `text`/`integer` would not.
const varchar = (name: string, length: number) => customType<{ data: string; driverData: string }>({ dataType: () => `varchar(${length})` })(name);
/** A UTC instant as BIGINT epoch milliseconds (INTEGER affinity), read back as a JS number. */
const millis = customType<{ data: number; driverData: number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (value) => Number(value),
});

/** Builds the tables under your own names (the defaults are exported ready-made below). */
export function sessauthSqliteTables(options: SessauthTableOptions = {}) {
  const names = tableNames(options);
  const session = sqliteTable(
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
  const rateLimit = sqliteTable(
    names.rateLimit,
    {
      /** SHA-256 (base64url) of the limiter's key: no raw IP or username at rest. */
      counterKey: varchar('counter_key', 64).primaryKey(),
      count: integer('count').notNull(),
      resetAt: millis('reset_at').notNull(),
    },
    (t) => [index(names.index.resetAt).on(t.resetAt)],
  );
  /** The activity history (JWT_SESSION_ACTIVITY; the store's `activity` option): append-only entries, bounded per session. */
  const activity = sqliteTable(
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
  const securityEvent = sqliteTable(
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
      attempts: integer('attempts').notNull(),
      /** A retry's due time, a claim's lease or a hold's deadline. */
      nextAttemptAt: millis('next_attempt_at').notNull(),
      createdAt: millis('created_at').notNull(),
      lastError: varchar('last_error', 255),
    },
    (t) => [index(names.index.securityEventDue).on(t.nextAttemptAt), index(names.index.securityEventBatch).on(t.batchId)],
  );
  return { session, rateLimit, activity, securityEvent };
}

/** The tables of one `sessauthSqliteTables` call: pass them to the stores when you renamed them. */
export type SessauthSqliteTables = ReturnType<typeof sessauthSqliteTables>;

const defaults = sessauthSqliteTables();
/** `sessauth_session`: one row per logged-in device. */
export const sessauthSession = defaults.session;
/** `sessauth_rate_limit`: the fixed-window counters of the rate limiter. */
export const sessauthRateLimit = defaults.rateLimit;
