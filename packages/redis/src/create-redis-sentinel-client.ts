import { Redis } from 'ioredis';
import type { RedisOptions, SentinelAddress } from 'ioredis';
import { connected, recommendedRedisOptions } from './create-redis-client.js';

export interface RedisSentinelClientOptions extends Omit<RedisOptions, 'sentinels' | 'name' | 'lazyConnect'> {
  /** The sentinels to ask for the primary (at least one must answer; give all of them). */
  readonly sentinels: ReadonlyArray<Partial<SentinelAddress>>;
  /** The monitored primary's name (`sentinel monitor <name> ...`). */
  readonly name: string;
}

/**
 * After a failover the old primary, once back, is turned into a replica: a command that reaches it
 * answers `READONLY`. Reconnect then (ioredis asks the sentinels again and finds the new primary);
 * `true`, not 2: the failed command is not sent again (it answers 503; its outcome is known: it did
 * not run), as `autoResendUnfulfilledCommands: false` keeps every write at most once.
 */
export function reconnectOnReadOnly(error: Error): boolean {
  return error.message.startsWith('READONLY');
}

/**
 * A connected ioredis client that finds the primary through Redis Sentinel and follows a failover
 * without a restart, with `recommendedRedisOptions` and:
 * - `failoverDetector: true`: it listens to the sentinels' `+switch-master` and moves to the new
 *   primary at once, instead of when the old one stops answering;
 * - `reconnectOnError: reconnectOnReadOnly`: a demoted primary's `READONLY` makes it reconnect.
 * `options` override them (for example `sentinelPassword`, `natMap`, `enableTLSForSentinelMode`).
 * Rejects with `StoreUnavailableError` when no sentinel answers or none knows a primary.
 */
export async function createRedisSentinelClient(options: RedisSentinelClientOptions): Promise<Redis> {
  const client = new Redis({
    ...recommendedRedisOptions,
    failoverDetector: true,
    reconnectOnError: reconnectOnReadOnly,
    ...options,
    sentinels: options.sentinels.map((sentinel) => ({ ...sentinel })),
    lazyConnect: true,
  });
  const hostPort = options.sentinels.map((sentinel) => `${sentinel.host ?? '127.0.0.1'}:${sentinel.port ?? 26379}`).join(', ');
  return connected(client, () => client.connect(), `redis sentinel (primary "${options.name}")`, {
    hostPort,
    tls: options.tls === undefined ? undefined : true,
  });
}
