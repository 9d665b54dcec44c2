// @sessauth/drizzle/pg: the sessauth tables as drizzle pg-core tables. Re-export them from
// your schema (`export * from '@sessauth/drizzle/pg'`) and drizzle-kit adds them to your
// migrations. The layout is the one `@sessauth/kysely` migrates, column for column and index
// for index, so a database can move between the two stores.
import { bigint, customType, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import { type SessauthTableOptions, tableNames } from '../schema/table-names.js';

export { DEFAULT_RATE_LIMIT_TABLE, DEFAULT_SESSION_TABLE, type SessauthTableOptions } from '../schema/table-names.js';

/**
 * The session id in byte order ("C"): keyset pages and tie-breaks order ids alike on every
 * engine, whatever the database's collation. drizzle has no column collation, so the type
 * carries it (drizzle-kit writes it into the migration as is).
 */
const byteOrderId = customType<{ data: string; driverData: string }>({ dataType: () => 'varchar(128) collate "C"' });

/** An activity entry id (and an outbox row's ids) in byte order, like the session id: entries sort by it. */
const activityId = customType<{ data: string; driverData: string }>({ dataType: () => 'varchar(64) collate "C"' });

/** A UTC instant as BIGINT epoch milliseconds, read back as a JS number (exact below 2^53). */
const millis = (name: string) => bigint(name, { mode: 'number' });

/** Builds the tables under your own names (the defaults are exported ready-made below). */
export function sessauthPgTables(options: SessauthTableOptions = {}) {
  const names = tableNames(options);
  const session = pgTable(
    names.session,
    {
      id: byteOrderId('id').primaryKey(),
      userId: varchar('user_id', { length: 255 }).notNull(),
      refreshJti: varchar('refresh_jti', { length: 128 }).notNull(),
      securityStamp: varchar('security_stamp', { length: 255 }).notNull(),
      createdAt: millis('created_at').notNull(),
      lastActivityAt: millis('last_activity_at').notNull(),
      expiresAt: millis('expires_at').notNull(),
      /** Set when revoked; null while the session may be active. */
      expiredAt: millis('expired_at'),
      ipAddress: varchar('ip_address', { length: 45 }),
      userAgent: varchar('user_agent', { length: 512 }),
      browser: varchar('browser', { length: 255 }),
      /** The `Location` object as JSON text. */
      location: text('location'),
      /** The device name its user gave it; null until named. */
      name: varchar('name', { length: 64 }),
      /** When the user last proved who they are (RFC 9470); null on older rows: `createdAt`. */
      authTime: millis('auth_time'),
      /** RFC 8176 method names as a JSON array; null on older rows: []. */
      amr: varchar('amr', { length: 1024 }),
      acr: varchar('acr', { length: 255 }),
      /** The DPoP key thumbprint the session is bound to (RFC 9449); null: not bound. */
      dpopJkt: varchar('dpop_jkt', { length: 64 }),
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
  const rateLimit = pgTable(
    names.rateLimit,
    {
      /** SHA-256 (base64url) of the limiter's key: no raw IP or username at rest. */
      counterKey: varchar('counter_key', { length: 64 }).primaryKey(),
      count: integer('count').notNull(),
      resetAt: millis('reset_at').notNull(),
    },
    (t) => [index(names.index.resetAt).on(t.resetAt)],
  );
  /** The activity history (JWT_SESSION_ACTIVITY; the store's `activity` option): append-only entries, bounded per session. */
  const activity = pgTable(
    names.activity,
    {
      id: activityId('id').primaryKey(),
      sessionId: varchar('session_id', { length: 128 }).notNull(),
      userId: varchar('user_id', { length: 255 }).notNull(),
      kind: varchar('kind', { length: 32 }).notNull(),
      at: millis('at').notNull(),
      expiresAt: millis('expires_at').notNull(),
      ipAddress: varchar('ip_address', { length: 45 }),
      browser: varchar('browser', { length: 255 }),
      /** The `Location` object as JSON text. */
      location: text('location'),
      detail: varchar('detail', { length: 512 }),
    },
    (t) => [index(names.index.activitySession).on(t.sessionId, t.id), index(names.index.activityExpires).on(t.expiresAt)],
  );
  /**
   * The Shared Signals transmitter's outbox (JWT_SSF_TRANSMITTER; the store's `securityEventOutbox`
   * option): one row per signed SET and stream until a receiver accepts it.
   */
  const securityEvent = pgTable(
    names.securityEvent,
    {
      /** The SET's `jti`. */
      id: activityId('id').primaryKey(),
      batchId: activityId('batch_id').notNull(),
      streamId: varchar('stream_id', { length: 64 }).notNull(),
      /** The signed SET (compact JWS), sent byte for byte on every attempt. */
      token: text('token').notNull(),
      userId: varchar('user_id', { length: 255 }),
      sessionId: varchar('session_id', { length: 128 }),
      /** held, ready or dead. */
      state: varchar('state', { length: 8 }).notNull(),
      attempts: integer('attempts').notNull(),
      /** A retry's due time, a claim's lease or a hold's deadline. */
      nextAttemptAt: millis('next_attempt_at').notNull(),
      createdAt: millis('created_at').notNull(),
      lastError: varchar('last_error', { length: 255 }),
    },
    (t) => [index(names.index.securityEventDue).on(t.nextAttemptAt), index(names.index.securityEventBatch).on(t.batchId)],
  );
  return { session, rateLimit, activity, securityEvent };
}

/** The tables of one `sessauthPgTables` call: pass them to the stores when you renamed them. */
export type SessauthPgTables = ReturnType<typeof sessauthPgTables>;

const defaults = sessauthPgTables();
/** `sessauth_session`: one row per logged-in device. */
export const sessauthSession = defaults.session;
/** `sessauth_rate_limit`: the fixed-window counters of the rate limiter. */
export const sessauthRateLimit = defaults.rateLimit;

/**
 * The statement of the custom migration that lets a login write its session in one round trip
 * (the function `<tableName>_evict_beyond_cap`; drizzle-kit does not manage functions, so it is
 * not in the tables above). Until it exists, logins take a transaction, as before. Make the file
 * with `npx drizzle-kit generate --custom --name sessauth-login-function` and put this statement
 * in it; the function keeps the search_path it is made with, so it finds the table made there.
 */
export function sessauthPgLoginFunction(options: SessauthTableOptions = {}): string {
  return `${postgresLoginFunctionDdl(tableNames(options).session).create};`;
}
