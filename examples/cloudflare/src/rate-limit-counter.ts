import { DurableObject } from 'cloudflare:workers';
import type { RateLimitStore } from '@sessauth/core';

interface Window {
  readonly count: number;
  readonly resetAtMs: number;
}

/**
 * One fixed-window counter per key, in a Durable Object: an object handles one call at a
 * time and its storage reads and writes between awaits of nothing else are atomic, so
 * every isolate of the worker, anywhere, counts the same hits.
 */
export class RateLimitCounter extends DurableObject {
  async hit(windowSec: number, nowMs: number): Promise<Window> {
    const current = await this.ctx.storage.get<Window>('window');
    const next: Window =
      current === undefined || current.resetAtMs <= nowMs
        ? { count: 1, resetAtMs: nowMs + windowSec * 1000 }
        : { count: current.count + 1, resetAtMs: current.resetAtMs };
    await this.ctx.storage.put('window', next);
    // The window's end is the object's alarm: it deletes itself instead of piling up keys.
    if (next.count === 1) await this.ctx.storage.setAlarm(next.resetAtMs);
    return next;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

/** The rate-limit port over the counters: the Durable Object named by the key counts its hits. */
export function durableObjectRateLimitStore(namespace: DurableObjectNamespace<RateLimitCounter>): RateLimitStore {
  return {
    async hit(key, windowSec, now) {
      const window = await namespace.get(namespace.idFromName(key)).hit(windowSec, now.getTime());
      return { count: window.count, resetAt: new Date(window.resetAtMs) };
    },
  };
}
