import type { Column, Table } from 'drizzle-orm';

/**
 * The columns the stores use, by their JS keys, as every dialect's table of this package has
 * them. Queries built from these alone (`eq`, `and`, ...) are the same SQL on all three
 * engines; what differs lives in each engine.
 */
export interface SessionColumns {
  readonly id: Column;
  readonly userId: Column;
  readonly refreshJti: Column;
  readonly securityStamp: Column;
  readonly createdAt: Column;
  readonly lastActivityAt: Column;
  readonly expiresAt: Column;
  readonly expiredAt: Column;
  readonly ipAddress: Column;
  readonly userAgent: Column;
  readonly browser: Column;
  readonly location: Column;
  readonly name: Column;
  readonly deviceBoundKey: Column;
}

export type SessionTable = Table & SessionColumns;

/** The activity history's columns (step 0006-session-activity). */
export interface ActivityColumns {
  readonly id: Column;
  readonly sessionId: Column;
  readonly userId: Column;
  readonly kind: Column;
  readonly at: Column;
  readonly expiresAt: Column;
  readonly ipAddress: Column;
  readonly browser: Column;
  readonly location: Column;
  readonly detail: Column;
}

export type ActivityTable = Table & ActivityColumns;

/** The Shared Signals outbox's columns (step 0007-security-event-outbox). */
export interface SecurityEventColumns {
  readonly id: Column;
  readonly batchId: Column;
  readonly streamId: Column;
  readonly token: Column;
  readonly userId: Column;
  readonly sessionId: Column;
  readonly state: Column;
  readonly attempts: Column;
  readonly nextAttemptAt: Column;
  readonly createdAt: Column;
  readonly lastError: Column;
}

export type SecurityEventTable = Table & SecurityEventColumns;

export interface RateLimitColumns {
  readonly counterKey: Column;
  readonly count: Column;
  readonly resetAt: Column;
}

export type RateLimitTable = Table & RateLimitColumns;
