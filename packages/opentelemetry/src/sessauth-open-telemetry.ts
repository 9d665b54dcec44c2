import { type Attributes, type MeterProvider, metrics, SpanKind, SpanStatusCode, trace, type TracerProvider } from '@opentelemetry/api';
import type { InstrumentedOperation, OperationOutcome, SessauthInstrumentation, StoreRole, TurnTiming } from '@sessauth/core';
import {
  ERROR_TYPE,
  HTTP_REQUEST_METHOD,
  HTTP_RESPONSE_STATUS_CODE,
  HTTP_ROUTE,
  SESSAUTH_OPERATION,
  SESSAUTH_OUTCOME,
  SESSAUTH_RESULT,
  SESSAUTH_REVOKE_REASON,
} from './attribute-names.js';
import { createInstruments, type Instruments } from './instruments.js';
import { observeStore } from './observe-store.js';

/** The instrumentation scope's name (the tracer's and the meter's). */
export const INSTRUMENTATION_NAME = '@sessauth/opentelemetry';
const INSTRUMENTATION_VERSION = '0.1.0';

export interface SessauthOpenTelemetryOptions {
  /** Where spans go. @default the global provider (`trace.getTracerProvider()`, set by the SDK's `start()`/`register()`) */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go. @default the global provider (`metrics.getMeterProvider()`) */
  readonly meterProvider?: MeterProvider;
  /**
   * `db.system.name` of the session store's database, as the semantic conventions name it:
   * `postgresql`, `mysql`, `mariadb`, `sqlite`, `redis`. Absent: not recorded (the memory store).
   */
  readonly storeSystem?: string;
  /** `db.system.name` of the rate-limit store's database. @default `storeSystem` */
  readonly rateLimitStoreSystem?: string;
}

/** The instrumentation to pass to `createSessauth({ instrumentation })`, plus the password hasher's observer. */
export interface SessauthOpenTelemetry extends SessauthInstrumentation {
  /**
   * Records one hash or verification's wait and run time: pass it as the argon2 hasher's
   * `onTurn` (`createArgon2PasswordHasher({ onTurn: telemetry.recordHasherTurn })`).
   */
  readonly recordHasherTurn: (turn: TurnTiming) => void;
}

/**
 * Traces and metrics of a sessauth engine with OpenTelemetry:
 * - a span per request to a route (`sessauth.login`, `sessauth.refresh`, `sessauth.list-sessions`,
 *   `sessauth.delete-session`, ...) and per call of the host guard (`sessauth.guard`), active
 *   while it runs, so each store call's span (`sessauth.store.findSession`, ...) is its child;
 * - counters of logins and refreshes (ok / failed / throttled), reuse detections, revocations
 *   by reason and 503s by operation; histograms of the routes', the guard's and the store
 *   calls' latency and of the password hasher's wait and run time.
 * Nothing recorded names a user, a token, a password or an address.
 */
export function sessauthOpenTelemetry(options: SessauthOpenTelemetryOptions = {}): SessauthOpenTelemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const instruments = createInstruments(meter);
  const sessionSystem = options.storeSystem ?? null;
  const storeObservation = { tracer, instruments, sessionSystem, rateLimitSystem: options.rateLimitStoreSystem ?? sessionSystem };
  return {
    run<T>(operation: InstrumentedOperation, work: (report: (outcome: OperationOutcome) => void) => Promise<T>): Promise<T> {
      return tracer.startActiveSpan(
        `sessauth.${operation.name}`,
        { kind: SpanKind.INTERNAL, attributes: startAttributes(operation) },
        async (span) => {
          const startedAt = performance.now();
          let outcome: OperationOutcome | null = null;
          try {
            return await work((reported) => {
              outcome = reported;
            });
          } finally {
            const seconds = (performance.now() - startedAt) / 1000;
            // A work that settles without reporting is a bug of the core; it is recorded as a 500.
            const answered: OperationOutcome = outcome ?? { status: 500, errorCode: 'internal_error' };
            const attributes = outcomeAttributes(operation, answered);
            span.setAttributes(attributes);
            if (answered.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            count(instruments, operation, answered, seconds, attributes);
          }
        },
      );
    },
    wrapStore: <S extends object>(store: S, role: StoreRole): S => observeStore(store, role, storeObservation),
    subscribe(on) {
      on('revoke', (event) => {
        instruments.revocations.add(event.count, { [SESSAUTH_REVOKE_REASON]: event.reason });
      });
    },
    recordHasherTurn: (turn) => {
      instruments.hasherWait.record(turn.waitMs / 1000);
      instruments.hasherRun.record(turn.runMs / 1000);
    },
  };
}

function startAttributes(operation: InstrumentedOperation): Attributes {
  const attributes: Attributes = { [SESSAUTH_OPERATION]: operation.name };
  if (operation.route !== null) attributes[HTTP_ROUTE] = operation.route;
  if (operation.method !== null) attributes[HTTP_REQUEST_METHOD] = operation.method;
  return attributes;
}

/** The bounded attributes of an answer: the operation, its route, its status and code. */
function outcomeAttributes(operation: InstrumentedOperation, outcome: OperationOutcome): Attributes {
  const attributes = startAttributes(operation);
  attributes[SESSAUTH_OUTCOME] = outcome.errorCode ?? 'ok';
  if (operation.route !== null) attributes[HTTP_RESPONSE_STATUS_CODE] = outcome.status;
  if (outcome.errorCode !== null) attributes[ERROR_TYPE] = outcome.errorCode;
  return attributes;
}

function count(instruments: Instruments, operation: InstrumentedOperation, outcome: OperationOutcome, seconds: number, attributes: Attributes): void {
  if (operation.name === 'guard') instruments.guardDuration.record(seconds, { [SESSAUTH_OUTCOME]: outcome.errorCode ?? 'ok' });
  else instruments.operationDuration.record(seconds, attributes);
  if (outcome.status === 503) instruments.unavailable.add(1, { [SESSAUTH_OPERATION]: operation.name });
  if (operation.name === 'login') {
    const result = resultOf(outcome);
    if (result !== null) instruments.logins.add(1, { [SESSAUTH_RESULT]: result });
  } else if (operation.name === 'refresh') {
    const result = resultOf(outcome);
    if (result !== null) instruments.refreshes.add(1, { [SESSAUTH_RESULT]: result });
    if (outcome.errorCode === 'token_reuse_detected') instruments.reuseDetections.add(1);
  }
}

/**
 * A login's or a refresh's result: ok, throttled (429: the per-address or per-account
 * budget, or the hasher's full waiting line), failed (any other refusal). A 5xx is the
 * server's, not the client's: counted in `sessauth.unavailable` (503), not here.
 */
function resultOf(outcome: OperationOutcome): 'ok' | 'failed' | 'throttled' | null {
  if (outcome.errorCode === null) return 'ok';
  if (outcome.status === 429) return 'throttled';
  return outcome.status >= 500 ? null : 'failed';
}
