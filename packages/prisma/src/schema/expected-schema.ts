/** A table of the schema by its role; its real name comes from the store's options. */
export type TableRole = 'session' | 'userLock' | 'rateLimit' | 'activity' | 'securityEvent';

/**
 * Every step of the sessauth schema -> the columns it creates or adds, in order, named as
 * `@sessauth/kysely` names its migrations (one layout, one history); the migrations of this
 * package's `prisma/<provider>/migrations` apply them. `verify()` derives what it expects from
 * this map alone and names the step of whatever is missing.
 * A NEW COLUMN ADDS A STEP HERE, beside its field in the three sessauth.prisma files and a new
 * migration folder per provider.
 */
export const SCHEMA_STEPS: ReadonlyArray<readonly [step: string, role: TableRole, columns: readonly string[]]> = [
  [
    '0001-create-session',
    'session',
    [
      'id',
      'user_id',
      'refresh_jti',
      'security_stamp',
      'created_at',
      'last_activity_at',
      'expires_at',
      'expired_at',
      'ip_address',
      'user_agent',
      'browser',
      'location',
    ],
  ],
  ['0001-create-session', 'userLock', ['user_id']],
  ['0002-create-rate-limit', 'rateLimit', ['counter_key', 'count', 'reset_at']],
  ['0003-session-name', 'session', ['name']],
  ['0004-session-authentication', 'session', ['auth_time', 'amr', 'acr']],
  ['0005-session-dpop', 'session', ['dpop_jkt']],
  ['0006-session-activity', 'activity', ['id', 'session_id', 'user_id', 'kind', 'at', 'expires_at', 'ip_address', 'browser', 'location', 'detail']],
  [
    '0007-security-event-outbox',
    'securityEvent',
    ['id', 'batch_id', 'stream_id', 'token', 'user_id', 'session_id', 'state', 'attempts', 'next_attempt_at', 'created_at', 'last_error'],
  ],
  ['0008-session-device-bound', 'session', ['device_bound_key']],
];

export interface ExpectedColumn {
  readonly name: string;
  readonly step: string;
}

/** The columns of one table as the steps leave it, and the step that creates it. */
export function expectedColumns(role: TableRole): { createdBy: string; columns: ExpectedColumn[] } {
  const entries = SCHEMA_STEPS.filter(([, owner]) => owner === role);
  return { createdBy: entries[0]![0], columns: entries.flatMap(([step, , columns]) => columns.map((name) => ({ name, step }))) };
}
