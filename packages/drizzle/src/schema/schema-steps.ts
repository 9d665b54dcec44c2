/**
 * The step of the sessauth schema that brought each table and each later column, named as
 * `@sessauth/kysely` names its migrations (one layout, one history). `verify()` names the step
 * of whatever is missing, so a host knows which release's tables its migrations lack.
 * A NEW COLUMN ADDS ITS LINE to COLUMN_STEPS (and its column to the three schema files).
 */
export const TABLE_STEPS = {
  session: '0001-create-session',
  userLock: '0001-create-session',
  rateLimit: '0002-create-rate-limit',
  activity: '0006-session-activity',
  securityEvent: '0007-security-event-outbox',
} as const;

export type TableRole = keyof typeof TABLE_STEPS;

/** Columns added after their table was created, by database name. */
export const COLUMN_STEPS: Readonly<Record<string, string>> = {
  name: '0003-session-name',
  auth_time: '0004-session-authentication',
  amr: '0004-session-authentication',
  acr: '0004-session-authentication',
  dpop_jkt: '0005-session-dpop',
  device_bound_key: '0008-session-device-bound',
};

export function stepOf(role: TableRole, column: string): string {
  return (role === 'session' ? COLUMN_STEPS[column] : undefined) ?? TABLE_STEPS[role];
}
