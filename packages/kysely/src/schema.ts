import { postgresLoginFunctionName } from '@sessauth/core/store';
import type { ColumnType } from 'kysely';

/**
 * A UTC instant stored as BIGINT epoch milliseconds. Drivers may hand a BIGINT
 * back as a string (pg) or a bigint; the store converts it to a `Date`.
 */
export type EpochMillisColumn = ColumnType<number | string | bigint, number, number>;

/** The session table (default name `sessauth_session`). */
export interface SessauthSessionTable {
  id: string;
  user_id: string;
  refresh_jti: string;
  security_stamp: string;
  created_at: EpochMillisColumn;
  last_activity_at: EpochMillisColumn;
  expires_at: EpochMillisColumn;
  /** Set when revoked; null while the session may be active. */
  expired_at: ColumnType<number | string | bigint | null, number | null, number | null>;
  ip_address: string | null;
  user_agent: string | null;
  browser: string | null;
  /** The `Location` object as JSON text. */
  location: string | null;
  /** The device name its user gave it (migration 0003-session-name); null until named. */
  name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Epoch ms of the last proof of identity (migration 0004-session-authentication); null: `created_at`. */
  auth_time: ColumnType<number | string | bigint | null, number | null | undefined, number | null>;
  /** JSON array of RFC 8176 method names; null: []. */
  amr: ColumnType<string | null, string | null | undefined, string | null>;
  acr: ColumnType<string | null, string | null | undefined, string | null>;
  /** The DPoP key thumbprint the session is bound to (migration 0005-session-dpop); null: not bound. */
  dpop_jkt: ColumnType<string | null, string | null | undefined, string | null>;
  /** The DBSC public key (JWK JSON) the session is bound to (migration 0008-session-device-bound); null: not bound. */
  device_bound_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * The activity history (migration 0006-session-activity; default name
 * `sessauth_session_activity`): append-only entries, bounded per session, each with its own
 * end of retention. Read and written only with JWT_SESSION_ACTIVITY on.
 */
export interface SessauthActivityTable {
  /** Minted by the core; orders the entries of a session. */
  id: string;
  session_id: string;
  user_id: string;
  kind: string;
  at: EpochMillisColumn;
  expires_at: EpochMillisColumn;
  ip_address: string | null;
  browser: string | null;
  /** The `Location` object as JSON text. */
  location: string | null;
  detail: string | null;
}

/** The fixed-window counters table (default name `sessauth_rate_limit`). */
export interface SessauthRateLimitTable {
  /** SHA-256 (base64url) of the limiter's key: bounded length, no raw IP or username at rest. */
  counter_key: string;
  count: ColumnType<number | string | bigint, number, number>;
  reset_at: EpochMillisColumn;
}

/** The Shared Signals outbox (`<tableName>_security_event`, migration 0007-security-event-outbox). */
export interface SessauthSecurityEventTable {
  id: string;
  batch_id: string;
  stream_id: string;
  /** The signed SET (compact JWS). */
  token: string;
  user_id: string | null;
  session_id: string | null;
  /** `held`, `ready` or `dead`. */
  state: string;
  attempts: ColumnType<number | string | bigint, number, number>;
  next_attempt_at: EpochMillisColumn;
  created_at: EpochMillisColumn;
  last_error: string | null;
}

/**
 * The tables this package creates, under their default names. Merge it into your
 * own database interface if you query them yourself.
 */
export interface SessauthKyselyDatabase {
  sessauth_session: SessauthSessionTable;
  sessauth_rate_limit: SessauthRateLimitTable;
}

export const DEFAULT_SESSION_TABLE = 'sessauth_session';
export const DEFAULT_RATE_LIMIT_TABLE = 'sessauth_rate_limit';

/** Every table and index name, derived from the two configurable table names. */
export interface TableNames {
  readonly session: string;
  readonly rateLimit: string;
  /** One row per user, locked to serialise a user's logins (MySQL/MariaDB only). */
  readonly userLock: string;
  /** The activity history (`<session table>_activity`). */
  readonly activity: string;
  /** PostgreSQL: the function that makes login's write one round trip (`<session table>_evict_beyond_cap`). */
  readonly loginFunction: string;
  /** The Shared Signals outbox. */
  readonly securityEvent: string;
  /** Kysely Migrator bookkeeping, kept apart from the host application's own. */
  readonly migration: string;
  readonly migrationLock: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

export function tableNames(tableName = DEFAULT_SESSION_TABLE, rateLimitTableName = DEFAULT_RATE_LIMIT_TABLE): TableNames {
  for (const name of [tableName, rateLimitTableName]) {
    // Derived index names must stay under PostgreSQL's 63-character limit.
    if (!IDENTIFIER.test(name)) {
      throw new TypeError(`@sessauth/kysely: table name must match ${IDENTIFIER.source}, got ${JSON.stringify(name)}`);
    }
  }
  return {
    session: tableName,
    rateLimit: rateLimitTableName,
    userLock: `${tableName}_user_lock`,
    activity: `${tableName}_activity`,
    loginFunction: postgresLoginFunctionName(tableName),
    securityEvent: `${tableName}_security_event`,
    migration: `${tableName}_migration`,
    migrationLock: `${tableName}_migration_lock`,
  };
}

/**
 * An index's name, cut to 63 characters when it is over MySQL's limit of 64: PostgreSQL has
 * always cut names over 63 there itself, and MySQL/MariaDB refuse names over 64, so a 40-character
 * table name's longest index (`<name>_security_event_batch_idx`, 65) gets the very name PostgreSQL
 * gave it on every engine, and every name that worked before keeps it.
 */
export function indexName(table: string, suffix: string): string {
  const name = `${table}_${suffix}`;
  return name.length > 64 ? name.slice(0, 63) : name;
}

/** Internal database shapes for a table whose name is only known at run time. */
export type SessionDb = Record<string, SessauthSessionTable>;
export type RateLimitDb = Record<string, SessauthRateLimitTable>;
export type ActivityDb = Record<string, SessauthActivityTable>;
export type SecurityEventDb = Record<string, SessauthSecurityEventTable>;
