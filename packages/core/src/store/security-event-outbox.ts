/**
 * The durable outbox of the Shared Signals transmitter (docs/shared-signals.md): one row per
 * signed Security Event Token and stream. A row is written before the change it reports
 * (`held`), made deliverable once the change is done (`ready`), and deleted when a receiver
 * accepted it; a row a receiver kept refusing stays as `dead` for the operator.
 */
export type SecurityEventState = 'held' | 'ready' | 'dead';

/** One SET waiting for (or refused by) one stream's receiver. */
export interface SecurityEventRecord {
  /** The SET's `jti`: every attempt sends this same token, so a duplicate carries the same `jti`. */
  readonly id: string;
  /** The rows written for one change together (released or dropped together). */
  readonly batchId: string;
  readonly streamId: string;
  /** The signed SET (compact JWS), sent byte for byte on every attempt. */
  readonly token: string;
  /** Whose change it reports (null for a stream's verification event). */
  readonly userId: string | null;
  /** The one session it reports, when it reports one: what the recovery of a held row checks. */
  readonly sessionId: string | null;
  readonly state: SecurityEventState;
  /** Delivery attempts made so far. */
  readonly attempts: number;
  /** When the row may next be claimed: a retry's due time, a claim's lease, a hold's deadline. */
  readonly nextAttemptAt: Date;
  readonly createdAt: Date;
  /** Why the last attempt failed (status and the receiver's `err`; never a token). */
  readonly lastError: string | null;
}

/** A row as the writer holds it. */
export type NewSecurityEvent = Pick<SecurityEventRecord, 'id' | 'batchId' | 'streamId' | 'token' | 'userId' | 'sessionId' | 'createdAt'>;

/** What became of one claimed row. */
export type SecurityEventOutcome =
  /** Accepted (202), or dropped because the change it reported never happened: the row is deleted. */
  | { readonly kind: 'remove' }
  /** A failed attempt with attempts left: `ready` again, due at `nextAttemptAt`. */
  | { readonly kind: 'retry'; readonly attempts: number; readonly nextAttemptAt: Date; readonly error: string }
  /** Refused for good, or out of attempts: kept as `dead`, never claimed again. */
  | { readonly kind: 'dead'; readonly attempts: number; readonly error: string };

/**
 * The outbox operations of the storage port: an optional capability, needed only when the
 * host turns the transmitter on (`JWT_SSF_TRANSMITTER`), which refuses at start-up a store
 * without them. Each is one atomic operation (a transaction, a MULTI or a Lua script).
 */
export interface SecurityEventOutbox {
  /**
   * Insert every row as `held`, claimable (for recovery) from `recoverAfter`: all of them or
   * none. A row whose id is already stored is left as it is (a retried call adds nothing).
   */
  holdSecurityEvents(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void>;

  /**
   * The change a held batch reports is done (`deliver` true): its `held` rows become `ready`,
   * due at `now`; or it did not happen (`deliver` false): its `held` rows are deleted. Rows of
   * the batch no longer `held` (already claimed by a recovery) are left alone. Returns how
   * many rows changed.
   */
  releaseSecurityEvents(batchId: string, deliver: boolean, now: Date): Promise<number>;

  /**
   * Claim up to `limit` rows that are `held` or `ready` with `nextAttemptAt <= now`, oldest
   * `nextAttemptAt` first: in one atomic step each one's `nextAttemptAt` becomes `leaseUntil`
   * (state unchanged), so a concurrent claim (another instance) does not get it, and a
   * claimer that dies leaves it to be claimed again after the lease. Returns the claimed rows
   * (`nextAttemptAt` is the lease).
   */
  claimSecurityEvents(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]>;

  /** Record what became of one claimed row (see `SecurityEventOutcome`); an unknown id is a no-op. */
  settleSecurityEvent(id: string, outcome: SecurityEventOutcome): Promise<void>;
}

const OUTBOX_METHODS = ['holdSecurityEvents', 'releaseSecurityEvents', 'claimSecurityEvents', 'settleSecurityEvent'] as const;

/** The store's outbox, when it has all four operations; null otherwise. */
export function securityEventOutboxOf(store: object): SecurityEventOutbox | null {
  const candidate = store as Partial<Record<(typeof OUTBOX_METHODS)[number], unknown>>;
  return OUTBOX_METHODS.every((name) => typeof candidate[name] === 'function') ? (store as SecurityEventOutbox) : null;
}
