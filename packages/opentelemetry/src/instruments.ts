import type { Counter, Histogram, Meter } from '@opentelemetry/api';

/**
 * Bucket boundaries in seconds, from 100 µs (a guard on a memory store) to 10 s (a store
 * at its deadline): the SDK's default boundaries are for milliseconds and would put every
 * guard call in the first bucket.
 */
const SECONDS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Every instrument, created once per `sessauthOpenTelemetry()`. */
export interface Instruments {
  /** Logins by `sessauth.result`: ok, failed, throttled. */
  readonly logins: Counter;
  /** Refreshes by `sessauth.result`: ok, failed, throttled. */
  readonly refreshes: Counter;
  /** Consumed refresh tokens presented again (each one revoked a session). */
  readonly reuseDetections: Counter;
  /** Sessions ended, by `sessauth.revoke.reason`. */
  readonly revocations: Counter;
  /** 503 `service_unavailable` answers, by `sessauth.operation`. */
  readonly unavailable: Counter;
  readonly operationDuration: Histogram;
  readonly guardDuration: Histogram;
  readonly storeDuration: Histogram;
  readonly hasherWait: Histogram;
  readonly hasherRun: Histogram;
}

export function createInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string): Histogram =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
  return {
    logins: meter.createCounter('sessauth.logins', { description: 'Password logins, by result (ok, failed, throttled).', unit: '{login}' }),
    refreshes: meter.createCounter('sessauth.refreshes', { description: 'Refreshes, by result (ok, failed, throttled).', unit: '{refresh}' }),
    reuseDetections: meter.createCounter('sessauth.reuse_detections', {
      description: 'Consumed refresh tokens presented again; each revoked its session.',
      unit: '{detection}',
    }),
    revocations: meter.createCounter('sessauth.revocations', { description: 'Sessions ended, by reason.', unit: '{session}' }),
    unavailable: meter.createCounter('sessauth.unavailable', {
      description: '503 service_unavailable answers (a store or limiter fault), by operation.',
      unit: '{response}',
    }),
    operationDuration: seconds('sessauth.operation.duration', 'Time to answer a request to one of the engine routes.'),
    guardDuration: seconds('sessauth.guard.duration', 'Time of one call of the host guard (auth.authenticate).'),
    storeDuration: seconds('sessauth.store.operation.duration', 'Time of one store call as the engine made it.'),
    hasherWait: seconds('sessauth.password_hasher.wait.duration', 'Time a hash or verification waited for a place of the hasher.'),
    hasherRun: seconds('sessauth.password_hasher.run.duration', 'Time a hash or verification ran.'),
  };
}
