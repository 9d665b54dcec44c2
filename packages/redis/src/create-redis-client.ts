import { StoreUnavailableError } from '@sessauth/core';
import { Cluster, Redis } from 'ioredis';
import type { ClusterNode, ClusterOptions, RedisOptions } from 'ioredis';
import { describeConnectionFailure, endpointOfUrl, type RedisEndpoint } from './connection-failure.js';

/**
 * ioredis options under which a Redis fault becomes a prompt error instead of a
 * hung request or a repeated write:
 * - `enableOfflineQueue: false`: while disconnected, a command fails at once
 *   instead of waiting in a queue (the request would hang, then maybe run late).
 * - `autoResendUnfulfilledCommands: false`: after a reconnect ioredis would re-send
 *   commands that got no answer; a rotation script could then run twice and revoke
 *   a healthy session as reused.
 * - `maxRetriesPerRequest: 1`: a bounded number of retries per command.
 * - `commandTimeout: 1000`: a command without an answer fails after one second.
 * - `connectTimeout: 2000`: a connection attempt gives up after two seconds.
 * Reconnection itself stays on (ioredis' default back-off), so the client heals
 * when the server returns.
 */
export const recommendedRedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  connectTimeout: 2000,
} as const satisfies RedisOptions;

/**
 * A connected ioredis client for `url` (`redis://` or `rediss://`) with
 * `recommendedRedisOptions`; `options` override them. Resolves once the client is
 * ready, because with the offline queue off, commands sent before that would fail.
 * Rejects with `StoreUnavailableError` (and stops reconnecting) when it cannot connect; its
 * message names the host and port (never the URL's credentials) and the likely fix.
 */
export async function createRedisClient(url: string, options: RedisOptions = {}): Promise<Redis> {
  const client = new Redis(url, { ...recommendedRedisOptions, ...options, lazyConnect: true });
  return connected(client, () => client.connect(), 'redis', endpointOfUrl(url));
}

/**
 * A connected ioredis `Cluster` with the same guarantees: the offline queue off at
 * the cluster level and `recommendedRedisOptions` on every node connection.
 */
export async function createRedisClusterClient(nodes: ClusterNode[], options: ClusterOptions = {}): Promise<Cluster> {
  const cluster = new Cluster(nodes, {
    enableOfflineQueue: false,
    ...options,
    lazyConnect: true,
    redisOptions: { ...recommendedRedisOptions, ...options.redisOptions },
  });
  const hostPort = nodes.map((node) => (typeof node === 'object' ? `${node.host ?? '127.0.0.1'}:${node.port ?? 6379}` : String(node))).join(', ');
  return connected(cluster, () => cluster.connect(), 'redis cluster', { hostPort, tls: options.redisOptions?.tls === undefined ? undefined : true });
}

/**
 * How long a client may take to become ready. ioredis' `connect()` can stay pending for good: a
 * `Cluster` whose `cluster_state` is not ok yet, or sentinels of which none answers, are retried
 * without end. A host's start must not hang on that.
 */
export const READY_BOUND_MS = 15_000;

/**
 * Connects; on failure (or when not ready within `READY_BOUND_MS`) disconnects (no reconnect
 * loop left behind) and rejects. The connection errors are this function's to report, so it
 * listens for them meanwhile; afterwards add your own `error` listener, as ioredis recommends.
 */
export async function connected<C extends Redis | Cluster>(
  client: C,
  connect: () => Promise<void>,
  what: string,
  endpoint: RedisEndpoint,
): Promise<C> {
  // ioredis rejects connect() with a bare "Connection is closed."; the socket's own error
  // (ECONNREFUSED, a TLS alert) arrives as an 'error' event first: keep it for the message.
  let socketError: unknown;
  const swallow = (error: unknown): void => {
    socketError ??= error;
  };
  client.on('error', swallow);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${READY_BOUND_MS / 1000} s`)), READY_BOUND_MS);
  });
  try {
    await Promise.race([connect(), bound]);
    return client;
  } catch (error) {
    client.disconnect();
    throw new StoreUnavailableError(describeConnectionFailure(what, endpoint, socketError ?? error), { cause: error });
  } finally {
    clearTimeout(timer);
    client.off('error', swallow);
  }
}
