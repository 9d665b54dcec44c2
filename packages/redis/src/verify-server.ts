import { guard } from './guard.js';
import type { RedisLike } from './redis-like.js';

/**
 * The Redis stores' start-up check (`verify()`, which `createSessauth` runs). Redis
 * has no schema to check, and every command the scripts use exists since Redis 2.6,
 * so there is no version to check either. What can be wrong at boot is that the
 * server does not answer, or does not let this client run scripts (an ACL without
 * `@scripting`, a proxy without EVAL), and every state change is a script. So: one
 * `EVAL "return 1" 0` under the store's time bound. A failure is a
 * `StoreUnavailableError` (never a `StoreSchemaError`): logged as `store_unverified`,
 * and the host starts.
 */
export function verifyServer(client: RedisLike, timeoutMs: number, operation: string): Promise<void> {
  return guard(operation, timeoutMs, async () => {
    const reply = await client.eval('return 1', 0);
    if (Number(reply) !== 1) throw new Error(`${operation}: unexpected reply to a script`);
  });
}
