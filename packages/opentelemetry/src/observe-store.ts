import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { StoreRole } from '@sessauth/core';
import { DB_OPERATION_NAME, DB_SYSTEM_NAME, ERROR_TYPE, SESSAUTH_STORE_KIND, SESSAUTH_STORE_ROLE } from './attribute-names.js';
import type { Instruments } from './instruments.js';

export interface StoreObservation {
  readonly tracer: Tracer;
  readonly instruments: Instruments;
  /** `db.system.name` of the session store; null: not recorded (the memory store). */
  readonly sessionSystem: string | null;
  /** `db.system.name` of the rate-limit store. */
  readonly rateLimitSystem: string | null;
}

/**
 * `store` with every method call timed and traced: a span `sessauth.store.<method>` under the
 * active span (a login's, a refresh's, the guard's), and one value of the store duration
 * histogram. The span is the store port's logical operation, INTERNAL: a database driver's
 * own instrumentation (pg, ioredis) puts its CLIENT spans, which follow the database
 * conventions, beneath it. Arguments and results are never read: they hold ids, token
 * ids, addresses and User-Agents.
 */
export function observeStore<S extends object>(store: S, role: StoreRole, observation: StoreObservation): S {
  const system = role === 'session' ? observation.sessionSystem : observation.rateLimitSystem;
  // The class's own name (a store that binds its methods may own a bound `constructor` too).
  const kind = (Object.getPrototypeOf(store) as { constructor?: { name?: string } } | null)?.constructor?.name;
  const base: Attributes = { [SESSAUTH_STORE_ROLE]: role };
  if (system !== null) base[DB_SYSTEM_NAME] = system;
  if (kind !== undefined && kind !== '' && kind !== 'Object') base[SESSAUTH_STORE_KIND] = kind;
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get: (target, key, receiver) => {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      let wrapper = wrappers.get(key);
      if (wrapper === undefined) {
        wrapper = timedMethod(target, key, value as (...args: unknown[]) => unknown, { ...base, [DB_OPERATION_NAME]: key }, observation);
        wrappers.set(key, wrapper);
      }
      return wrapper;
    },
  });
}

function timedMethod(
  target: object,
  name: string,
  method: (...args: unknown[]) => unknown,
  attributes: Attributes,
  { tracer, instruments }: StoreObservation,
): (...args: unknown[]) => unknown {
  const spanName = `sessauth.store.${name}`;
  return (...args: unknown[]): unknown => {
    const span = tracer.startSpan(spanName, { kind: SpanKind.INTERNAL, attributes });
    const startedAt = performance.now();
    const end = (error?: unknown): void => {
      const recorded = error === undefined ? attributes : { ...attributes, [ERROR_TYPE]: errorType(error) };
      instruments.storeDuration.record((performance.now() - startedAt) / 1000, recorded);
      endSpan(span, error);
    };
    let result: unknown;
    try {
      result = method.apply(target, args);
    } catch (error) {
      end(error);
      throw error;
    }
    // The memory store answers some calls in the same turn, without a promise.
    if (!isThenable(result)) {
      end();
      return result;
    }
    return result.then(
      (value) => {
        end();
        return value;
      },
      (error: unknown) => {
        end(error);
        throw error;
      },
    );
  };
}

function endSpan(span: Span, error: unknown): void {
  if (error !== undefined) {
    span.setAttribute(ERROR_TYPE, errorType(error));
    // Not recordException: a store's message may name hosts, ports or driver state.
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** The error's class name (`StoreUnavailableError`, `QueryDeadlineError`); never its message. */
function errorType(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
