import { StoreUnavailableError, type Logger } from '@sessauth/core';
import type { RedisLike, RedisPipelineLike } from './redis-like.js';
import { keySlot } from './key-slot.js';
import { runScript, type LuaScript } from './script-runner.js';
import { execForSlot } from './slot-pipeline.js';

/**
 * How many replicas must hold a state change before the store acknowledges it (Redis `WAIT`).
 * See docs/running-on-more-than-one-machine.md for what this does and does not promise.
 */
export interface RedisDurability {
  /** Replicas that must acknowledge each write (`WAIT numreplicas`). A positive integer. */
  readonly replicas: number;
  /**
   * How long to wait for them (`WAIT ... timeout`), in milliseconds. A positive integer (0 would
   * block forever), below the store's `operationTimeoutMs` and the client's `commandTimeout`.
   */
  readonly timeoutMs: number;
}

/** The log event of a write that did not reach enough replicas in time (the call then fails with 503). */
export const DURABILITY_UNMET = 'redis_durability_unmet';

/** Refuses a setting that cannot work, at construction (a typo must not turn the promise off silently). */
export function validateDurability(durability: RedisDurability | undefined, operationTimeoutMs: number, client: RedisLike): RedisDurability | null {
  if (durability === undefined) return null;
  const { replicas, timeoutMs } = durability;
  if (!Number.isSafeInteger(replicas) || replicas < 1) throw new TypeError('RedisSessionStore: durability.replicas must be a positive integer');
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new TypeError('RedisSessionStore: durability.timeoutMs must be a positive integer');
  if (timeoutMs >= operationTimeoutMs) {
    throw new TypeError('RedisSessionStore: durability.timeoutMs must be below operationTimeoutMs (the wait is part of the call)');
  }
  if (typeof client.pipeline !== 'function') {
    throw new TypeError('RedisSessionStore: durability needs a client with pipeline() (ioredis Redis or Cluster)');
  }
  return { replicas, timeoutMs };
}

export interface DurableWriteContext {
  readonly client: RedisLike;
  readonly durability: RedisDurability | null;
  readonly logger: Logger;
}

/**
 * Runs a state-changing script; with a durability setting, `WAIT replicas timeoutMs` follows it in
 * the same pipeline: the same connection (on a cluster, the node that owns the script's slot), so
 * WAIT counts the replicas that hold this write. Fewer than asked in time: the call fails with
 * `StoreUnavailableError` (503, fail closed) and one log line without keys or values. The write
 * itself is not undone (Redis cannot): it is on the primary and may reach the replicas later, so
 * the client must treat the outcome as unknown, as it does for any 503 of a write.
 */
export async function runWriteScript(
  ctx: DurableWriteContext,
  operation: string,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const durability = ctx.durability;
  if (durability === null) return runScript(ctx.client, script, keys, args);
  // `'any'`: as many keys as the call passes (the activity scripts), all in one slot.
  const numberOfKeys = script.numberOfKeys === 'any' ? keys.length : script.numberOfKeys;
  if (keys.length !== numberOfKeys) throw new Error('sessauth: wrong number of script keys');
  const slot = keySlot(keys[0] ?? '');
  let replies = await scriptThenWait(ctx.client, slot, durability, (pipeline) => pipeline.evalsha(script.sha1, numberOfKeys, ...keys, ...args));
  const scriptError = replies[0]?.[0];
  // NOSCRIPT: the script did not run (a restarted or promoted server); EVAL runs and caches it once.
  if (scriptError instanceof Error && scriptError.message.startsWith('NOSCRIPT')) {
    replies = await scriptThenWait(ctx.client, slot, durability, (pipeline) => pipeline.eval(script.source, numberOfKeys, ...keys, ...args));
  }
  const [scriptReply, waitReply] = replies;
  if (scriptReply === undefined || waitReply === undefined) throw new Error('redis store: a pipeline reply is missing');
  if (scriptReply[0] !== null) throw scriptReply[0];
  if (waitReply[0] !== null) throw waitReply[0];
  const acknowledged = Number(waitReply[1]);
  if (!(acknowledged >= durability.replicas)) {
    ctx.logger.warn(DURABILITY_UNMET, { operation, acknowledged, required: durability.replicas, timeoutMs: durability.timeoutMs });
    throw new StoreUnavailableError(
      `redis store: ${operation}: ${acknowledged} of ${durability.replicas} replicas acknowledged the write within ${durability.timeoutMs} ms`,
      { operation },
    );
  }
  return scriptReply[1];
}

async function scriptThenWait(
  client: RedisLike,
  slot: number,
  durability: RedisDurability,
  queueScript: (pipeline: DurablePipeline) => unknown,
): Promise<Array<[error: Error | null, reply: unknown]>> {
  return execForSlot(client, slot, (pipeline) => {
    if (pipeline.evalsha === undefined || pipeline.eval === undefined || pipeline.wait === undefined) {
      throw new Error('redis store: durability needs pipeline() with evalsha, eval and wait');
    }
    queueScript(pipeline as DurablePipeline);
    pipeline.wait(durability.replicas, durability.timeoutMs);
  });
}

/** A pipeline with the optional methods a durable write uses (checked before use). */
type DurablePipeline = Required<Pick<RedisPipelineLike, 'evalsha' | 'eval' | 'wait'>>;
