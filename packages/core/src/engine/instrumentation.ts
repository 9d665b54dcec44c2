import type { ErrorCode } from '../errors/error-codes.js';
import { SessauthError } from '../errors/sessauth-error.js';
import type { SessauthEventHandler, SessauthEventName } from '../events/session-events.js';

/**
 * The hook an observer (traces, metrics) plugs into `createSessauth({ instrumentation })`.
 * The core names no tracing library: `@sessauth/opentelemetry` implements it with
 * OpenTelemetry, a host may implement it with anything else. Without it the engine runs
 * exactly as before: every hook is chosen once, at creation, so the guard's hot path does
 * not even test whether one is present.
 */
export interface SessauthInstrumentation {
  /**
   * Runs `work`, one operation of the engine, inside whatever the observer needs (an active
   * span, a timer) and returns what `work` returns, untouched (a rejection included). `work`
   * calls `report` once, before it settles, with what the operation answered.
   */
  run<T>(operation: InstrumentedOperation, work: (report: OutcomeReporter) => Promise<T>): Promise<T>;
  /**
   * Called once at creation with each store the engine calls (the session store, the
   * rate-limit store); the engine calls what it returns instead. The result must behave as
   * the store it wraps (every method, its result and its rejection passed on unchanged).
   */
  wrapStore?<S extends object>(store: S, role: StoreRole): S;
  /** Called once at creation: subscribes the observer to the engine's events (`revoke`, ...). */
  subscribe?(on: <E extends SessauthEventName>(name: E, handler: SessauthEventHandler<E>) => () => void): void;
}

/** Which store a wrapped store is. */
export type StoreRole = 'session' | 'rate-limit';

/** One operation: a request to one of the engine's routes, or a call of the host guard. */
export interface InstrumentedOperation {
  /** The route's name (`login`, `refresh`, `list-sessions`, `delete-session`, ...), or `guard` for `auth.authenticate`. */
  readonly name: string;
  /** The route's template as mounted, `/auth/sessions/{id}/`; null for the guard of a host route. */
  readonly route: string | null;
  /** The request's method; null for the guard. */
  readonly method: string | null;
}

/** What one operation answered. */
export interface OperationOutcome {
  /** The HTTP status it answered (the guard: the status its error would answer, 200 when it let the caller in). */
  readonly status: number;
  /** The wire `error_code`; null when it succeeded. */
  readonly errorCode: ErrorCode | null;
}

export type OutcomeReporter = (outcome: OperationOutcome) => void;

/** The outcome of a failure as the client sees it: a SessauthError's code and status, else 500 `internal_error`. */
export function outcomeOfError(error: unknown): OperationOutcome {
  return error instanceof SessauthError ? { status: error.status, errorCode: error.code } : { status: 500, errorCode: 'internal_error' };
}
