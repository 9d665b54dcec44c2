import { createHash } from 'node:crypto';
import type { RedisLike } from './redis-like.js';

/** A Lua script with its SHA-1, run by EVALSHA. */
export interface LuaScript {
  readonly source: string;
  readonly sha1: string;
  /** The keys it takes; `'any'`: as many as the call passes (all in one slot). */
  readonly numberOfKeys: number | 'any';
}

export function luaScript(source: string, numberOfKeys: number | 'any'): LuaScript {
  return { source, numberOfKeys, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * EVALSHA, and on `NOSCRIPT` (a restarted or failed-over server, a cluster node that
 * never saw the script) one EVAL, which also caches the script again. NOSCRIPT means
 * the script did not run, so the retry cannot apply a change twice.
 */
export async function runScript(client: RedisLike, script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  const numberOfKeys = script.numberOfKeys === 'any' ? keys.length : script.numberOfKeys;
  if (keys.length !== numberOfKeys) throw new Error('sessauth: wrong number of script keys');
  try {
    return await client.evalsha(script.sha1, numberOfKeys, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.source, numberOfKeys, ...keys, ...args);
  }
}
