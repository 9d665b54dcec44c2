/** The two names a host may choose; every other name (indexes, the MySQL user-lock table) derives from them. */
export interface SessauthTableOptions {
  /** The session table. @default 'sessauth_session' */
  tableName?: string;
  /** The rate-limit counters table. @default 'sessauth_rate_limit' */
  rateLimitTableName?: string;
}

export const DEFAULT_SESSION_TABLE = 'sessauth_session';
export const DEFAULT_RATE_LIMIT_TABLE = 'sessauth_rate_limit';

/** Every table and index name, as `@sessauth/kysely` derives them (one layout for both stores). */
export interface TableNames {
  readonly session: string;
  readonly rateLimit: string;
  /** One row per user, locked to serialise a user's logins (MySQL/MariaDB only). */
  readonly userLock: string;
  /** The activity history (`<session>_activity`, step 0006-session-activity). */
  readonly activity: string;
  /** The Shared Signals outbox (`<session>_security_event`, step 0007-security-event-outbox). */
  readonly securityEvent: string;
  readonly index: {
    readonly userActive: string;
    readonly expiredAt: string;
    readonly expiresAt: string;
    readonly createdId: string;
    readonly resetAt: string;
    readonly activitySession: string;
    readonly activityExpires: string;
    readonly securityEventDue: string;
    readonly securityEventBatch: string;
  };
}

// Derived index names must stay under PostgreSQL's 63-character limit (the Kysely store's rule).
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/**
 * Cut to 63 characters when over MySQL's limit of 64, the name PostgreSQL has always cut it to
 * itself (`@sessauth/kysely`'s rule): a 40-character table name's `<name>_security_event_batch_idx`
 * is 65; every name that worked before keeps it.
 */
function indexName(name: string): string {
  return name.length > 64 ? name.slice(0, 63) : name;
}

export function tableNames(options: SessauthTableOptions = {}): TableNames {
  const session = options.tableName ?? DEFAULT_SESSION_TABLE;
  const rateLimit = options.rateLimitTableName ?? DEFAULT_RATE_LIMIT_TABLE;
  for (const name of [session, rateLimit]) {
    if (!IDENTIFIER.test(name)) {
      throw new TypeError(`@sessauth/drizzle: table name must match ${IDENTIFIER.source}, got ${JSON.stringify(name)}`);
    }
  }
  return {
    session,
    rateLimit,
    userLock: `${session}_user_lock`,
    activity: `${session}_activity`,
    securityEvent: `${session}_security_event`,
    index: {
      userActive: `${session}_user_active_idx`,
      expiredAt: `${session}_expired_at_idx`,
      expiresAt: `${session}_expires_at_idx`,
      createdId: `${session}_created_id_idx`,
      resetAt: `${rateLimit}_reset_at_idx`,
      activitySession: `${session}_activity_sid_idx`,
      activityExpires: `${session}_activity_exp_idx`,
      securityEventDue: indexName(`${session}_security_event_due_idx`),
      securityEventBatch: indexName(`${session}_security_event_batch_idx`),
    },
  };
}
