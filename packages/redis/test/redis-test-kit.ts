import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { reachService } from '@sessauth/conformance';
import { createRedisClient } from '../src/index.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix of its own per run, so runs and suites never see each other's keys. */
export function randomPrefix(): string {
  return `sessauth-test:${randomBytes(6).toString('hex')}:`;
}

/** A client on the local Redis, or null (a loud skip; a failure under SESSAUTH_REQUIRE_SERVICES=1). */
export function reachLocalRedis(): Promise<Redis | null> {
  return reachService(`Redis at ${REDIS_URL}`, () => createRedisClient(REDIS_URL));
}

/** Deletes every key under `prefix` on one server (SCAN, never KEYS). */
export async function deleteByPrefix(server: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await server.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    // One key per DEL: in a cluster the keys of one node still span many slots.
    for (const key of keys) deleted += await server.del(key);
  } while (cursor !== '0');
  return deleted;
}

/** Settles within `ms`, or rejects saying so: a bound on a failure path, not a benchmark. */
export function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}
