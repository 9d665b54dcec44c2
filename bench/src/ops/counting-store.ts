import type { SessionStore } from '@sessauth/core';

/** A store that counts the calls made on it: "one store call per refresh" is checked, not assumed. */
export function countingStore(store: SessionStore): { store: SessionStore; calls: Map<string, number>; reset(): void } {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, calls, reset: () => calls.clear() };
}

export function describeCalls(calls: Map<string, number>, operations: number): string {
  return [...calls].map(([name, n]) => `${name} ${(n / operations).toFixed(2)}`).join(', ') || 'none';
}
