import type { SecurityEventRecord, SecurityEventState } from './security-event-outbox.js';

/**
 * An outbox row under the SQL tables' column names (migration 0007-security-event-outbox), as the
 * Kysely and Prisma stores read it. Numbers may come back as strings or bigints (drivers differ).
 */
export interface SecurityEventTableRow {
  id: string;
  batch_id: string;
  stream_id: string;
  token: string;
  user_id: string | null;
  session_id: string | null;
  state: string;
  attempts: unknown;
  created_at: unknown;
  last_error: string | null;
}

/** A claimed row as the port's record; its next attempt is the claim's lease end. */
export function securityEventFromRow(row: SecurityEventTableRow, leaseUntil: Date): SecurityEventRecord {
  return {
    id: row.id,
    batchId: row.batch_id,
    streamId: row.stream_id,
    token: row.token,
    userId: row.user_id,
    sessionId: row.session_id,
    state: row.state as SecurityEventState,
    attempts: Number(row.attempts),
    nextAttemptAt: new Date(leaseUntil.getTime()),
    createdAt: new Date(Number(row.created_at)),
    lastError: row.last_error,
  };
}
