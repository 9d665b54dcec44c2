import { StoreUnavailableError } from '../errors/sessauth-error.js';
import { settleWithin } from '../time/settle-within.js';
import type { RateLimitStore, SessionStore } from './store-port.js';

/**
 * One request's store calls share one budget of store time: every call gets only what the
 * calls before it left. A store bounds each call by itself, but a login (throttle, then the
 * session write) or a refresh (throttle, then the rotation) makes two calls in a row, and
 * under a slow database each could take the store's whole deadline. Only time spent waiting
 * on a store counts: a login's wait for the password hasher between its calls is not a store
 * fault and spends nothing. Past the budget the call is answered at once with
 * StoreUnavailableError (503); the store's own call goes on in the background until its own
 * deadline, as an answer lost on the way would (a client must not retry an ambiguous refresh).
 */
export class RequestStoreBudget {
  #spentMs = 0;

  constructor(private readonly budgetMs: number) {}

  /** Elapsed real time, whatever the engine's clock says (tests move that one). */
  private now(): number {
    return performance.now();
  }

  /** `store` with every method bounded by what is left of this request's budget. */
  bound<S extends SessionStore | RateLimitStore>(store: S): S {
    return new Proxy(store, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => this.#within(String(key), () => (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
  }

  #within(operation: string, call: () => unknown): unknown {
    const left = this.budgetMs - this.#spentMs;
    if (left <= 0) return Promise.reject(exhausted(operation, this.budgetMs));
    const startedAt = this.now();
    const result = call();
    if (!(result instanceof Promise)) return result;
    const spend = (): void => {
      this.#spentMs += this.now() - startedAt;
    };
    return settleWithin(
      left,
      () => result,
      () => exhausted(operation, this.budgetMs),
    ).finally(spend);
  }
}

function exhausted(operation: string, budgetMs: number): StoreUnavailableError {
  return new StoreUnavailableError(`the request's store budget of ${budgetMs} ms ran out during ${operation}`, { operation });
}
