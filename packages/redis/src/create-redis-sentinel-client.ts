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
 *   primary at once, instead of when the old one stops answering (or, partitioned, is demoted);
 * - `reconnectOnError: reconnectOnReadOnly`: a demoted primary's `READONLY` makes it reconnect;
 * - a reconnect after an unasked end: ioredis (5.11) ends a sentinel client for good when it is told
 *   to disconnect while it is still resolving the primary (a `+switch-master` or a `READONLY` in the
 *   middle of a reconnect, seen in the failover tests); every later command would then fail. Only
 *   `disconnect()` and `quit()` end this client.
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
  keepConnecting(client);
  const hostPort = options.sentinels.map((sentinel) => `${sentinel.host ?? '127.0.0.1'}:${sentinel.port ?? 26379}`).join(', ');
  return connected(client, () => client.connect(), `redis sentinel (primary "${options.name}")`, {
    hostPort,
    tls: options.tls === undefined ? undefined : true,
  });
}

/** Connects again after an `end` that neither `disconnect()` nor `quit()` asked for (see above). */
function keepConnecting(client: Redis): void {
  let endAsked = false;
  const disconnect = client.disconnect.bind(client);
  const quit = client.quit.bind(client);
  client.disconnect = (reconnect = false): void => {
    if (!reconnect) endAsked = true;
    disconnect(reconnect);
  };
  client.quit = ((...args: Parameters<Redis['quit']>) => {
    endAsked = true;
    return quit(...args);
  }) as Redis['quit'];
  client.on('end', () => {
    if (endAsked) return;
    // Once the failed connect has settled (ioredis is still unwinding it when it emits `end`).
    setTimeout(() => {
      if (!endAsked && client.status === 'end') client.connect().catch(() => undefined);
    }, 100);
  });
}
