import { describeStoreConformance, newSessionFixture, reachService } from '@sessauth/conformance';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Cluster as IORedisCluster, Redis, type Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore, createRedisClusterClient } from '../src/index.js';
import { keySlot } from '../src/key-slot.js';
import type { RedisLike, RedisPipelineLike } from '../src/redis-like.js';
import { execForSlot } from '../src/slot-pipeline.js';
import { escapeTag } from '../src/keys.js';
import { startLocalRedisCluster, type LocalRedisCluster } from './local-redis-cluster.js';
import { randomPrefix } from './redis-test-kit.js';

// One cluster for the whole file, started on first use and shut down at the end.
let started: Promise<LocalRedisCluster | null> | undefined;
const cluster = (): Promise<LocalRedisCluster | null> =>
  (started ??= reachService('a local Redis Cluster (redis-server and redis-cli on PATH)', startLocalRedisCluster));

async function connect(): Promise<Cluster | null> {
  const nodes = await cluster();
  if (nodes === null) return null;
  return createRedisClusterClient(nodes.ports.map((port) => ({ host: '127.0.0.1', port })));
}

afterAll(async () => {
  await (await started)?.stop();
}, 30_000);

describeStoreConformance('redis (three-node cluster)', async () => {
  const client = await connect();
  if (client === null) return null;
  const keyPrefix = randomPrefix();
  return {
    store: new RedisSessionStore({ client, keyPrefix }),
    // A second app server: its own cluster client and owner cache over the same keys.
    openSecondInstance: async () => {
      const other = await connect();
      if (other === null) throw new Error('the cluster answered the first client but not the second');
      return { store: new RedisSessionStore({ client: other, keyPrefix }), close: () => other.quit().then(() => undefined) };
    },
    close: () => client.quit().then(() => undefined),
  };
});

/** A cluster client of the enclosing describe's own, connected before its tests and closed after (null: no cluster). */
function suiteClient(): () => Cluster | null {
  let client: Cluster | null = null;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(async () => {
    await client?.quit();
  });
  return () => client;
}

describe('redis cluster: key placement', () => {
  const clientOf = suiteClient();

  it('puts every key of one user in one slot, and findSession works from the id alone', async (test) => {
    const client = clientOf();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const keyPrefix = randomPrefix();
    const store = new RedisSessionStore({ client, keyPrefix, ownerCacheSize: 0 });
    // Braces in a user id must not end the hash tag early.
    const userId = `ali{ce}:${Math.random()}`;
    const sessions = [0, 1, 2].map(() => newSessionFixture({ userId }));
    for (const session of sessions) await store.createSession({ session, maxActiveSessions: 2 });
    expect(await store.findSession(sessions[2]!.id)).toMatchObject({ userId });

    const keys = await keysUnder(client, keyPrefix);
    const tag = `{u:${escapeTag(userId)}}`;
    const userKeys = keys.filter((key) => key.includes(tag));
    // Three session hashes, the active index and the index of all sessions.
    expect(userKeys.sort()).toEqual(
      [...sessions.map((s) => `${keyPrefix}${tag}:s:${s.id}`), `${keyPrefix}${tag}:active`, `${keyPrefix}${tag}:all`].sort(),
    );
    const slots = await Promise.all(userKeys.map((key) => client.cluster('KEYSLOT', key)));
    expect(new Set(slots).size).toBe(1);
  });

  it('checkPersistence asks every master (these run without AOF: one warning each)', async (test) => {
    const client = clientOf();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const warnings: (string | number | boolean | null | undefined)[] = [];
    const logger = {
      warn: (_: string, fields?: Record<string, string | number | boolean | null>) => warnings.push(fields?.node),
      error: () => undefined,
    };
    const report = await new RedisSessionStore({ client, logger }).checkPersistence();
    expect(report.durable).toBe(false);
    expect(report.nodes).toHaveLength(3);
    expect(warnings.sort()).toEqual([0, 1, 2]);
  });
});

describe("redis cluster: never a Cluster pipeline; a durable write's pipeline goes to its slot primary's connection", () => {
  // ioredis routes each command of a `Cluster` pipeline on its own; while its slot map has no usable
  // owner (a failover, a MOVED through natMap) it picks a random node per command and can split one
  // pipeline over two connections, after which one connection's replies go to the wrong commands
  // (the failover soak lost live sessions that way). The batched read sends single commands; a
  // durable write's script and WAIT go in a pipeline on the slot primary's own connection.
  const clientOf = suiteClient();

  it('the batched read and its replies are right with the Cluster pipeline forbidden', async (test) => {
    const client = clientOf();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const routerless = new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'pipeline') {
          return () => {
            throw new Error('the Cluster pipeline was used');
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const keyPrefix = randomPrefix();
    const sessions = [0, 1, 2].map((n) => newSessionFixture({ userId: `user-${n % 2}` }));
    const writer = new RedisSessionStore({ client: routerless, keyPrefix });
    for (const session of sessions) await writer.createSession({ session, maxActiveSessions: 5 });
    // The owners cached (the writer) and not (a fresh store): every read of the batch.
    for (const reader of [writer, new RedisSessionStore({ client: routerless, keyPrefix })]) {
      const found = await reader.findSessions(sessions.map((session) => session.id));
      expect([...found.keys()].sort()).toEqual(sessions.map((session) => session.id).sort());
      for (const session of sessions) expect(found.get(session.id)).toMatchObject({ id: session.id, userId: session.userId });
    }
  });

  it('a slot whose owner in the map has no connection: the read follows the redirect; a slot pipeline fails closed, then works on the fresh map', async (test) => {
    const client = clientOf();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const keyPrefix = randomPrefix();
    const session = newSessionFixture({ userId: 'lost-slot' });
    const store = new RedisSessionStore({ client, keyPrefix });
    await store.createSession({ session, maxActiveSessions: 5 });
    const key = `${keyPrefix}{u:lost-slot}:s:${session.id}`;
    const slot = keySlot(key);
    // What a MOVED through natMap leaves in ioredis' map: a node key of no connection.
    client.slots[slot] = ['127.0.0.1:1'];
    // Single commands: ioredis sends each to some node and follows its MOVED.
    expect((await store.findSessions([session.id])).get(session.id)).toMatchObject({ id: session.id });
    client.slots[slot] = ['127.0.0.1:1'];
    const refreshes = countRefreshes(client);
    const hashLength = (pipeline: RedisPipelineLike) => void (pipeline as unknown as { hlen(key: string): unknown }).hlen(key);
    await expect(execForSlot(client, slot, hashLength)).rejects.toThrow(`no ready primary is known for slot ${slot}`);
    expect(refreshes()).toBe(1);
    // The store asked for a fresh map; the node's own pipeline then answers.
    const deadline = Date.now() + 10_000;
    let replies: Array<[Error | null, unknown]> | null = null;
    while (replies === null && Date.now() < deadline) {
      replies = await execForSlot(client, slot, hashLength).catch(() => null);
      if (replies === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(replies?.[0]?.[0]).toBeNull();
    expect(Number(replies?.[0]?.[1])).toBeGreaterThan(3);
  });

  it('a Cluster created with lazyConnect and never used is connected by the first slot pipeline', async (test) => {
    const nodes = await cluster();
    if (nodes === null) return test.skip('its server is unreachable (named in the skip line above)');
    const lazy = new IORedisCluster(
      nodes.ports.map((port) => ({ host: '127.0.0.1', port })),
      { lazyConnect: true },
    );
    try {
      expect(lazy.status).toBe('wait');
      const replies = await execForSlot(lazy, keySlot('lazy-key'), (pipeline) => void (pipeline as unknown as { ping(): unknown }).ping());
      expect(replies).toEqual([[null, 'PONG']]);
      expect(lazy.status).toBe('ready');
    } finally {
      lazy.disconnect();
    }
  });

  it('calls that meet a primary still being connected share one wait (no listeners piling up), then fail closed', async (test) => {
    if ((await cluster()) === null) return test.skip('its server is unreachable (named in the skip line above)');
    // A primary that accepts the connection but never answers its ready check: ioredis keeps it in
    // `connect`, as it keeps a primary that is loading its data after a restart.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const node = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
    const listeners = () => SETTLING.map((event) => node.listenerCount(event));
    let refreshes = 0;
    // A cluster client as the store reads it (RedisLike is structural): slot 0 served by that node.
    const client = {
      isCluster: true,
      status: 'ready',
      slots: [[`127.0.0.1:${port}`]],
      nodes: () => [node],
      pipeline: () => {
        throw new Error('the Cluster pipeline was used');
      },
      refreshSlotsCache: () => void (refreshes += 1),
    } as unknown as RedisLike;
    const failsClosed = (outcome: PromiseSettledResult<unknown>) => outcome.status === 'rejected' && /no ready primary/.test(String(outcome.reason));
    try {
      const first = Promise.allSettled([execForSlot(client, 0, () => undefined)]);
      // Connected on loopback within milliseconds; the wait it meets lasts 1 s.
      for (let polls = 0; polls < 80 && node.status !== 'connect'; polls += 1) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(node.status).toBe('connect');
      const withOneCall = listeners();
      const more = Promise.allSettled(Array.from({ length: 49 }, () => execForSlot(client, 0, () => undefined)));
      await new Promise((resolve) => setTimeout(resolve, 10));
      // 49 more calls wait on the first one's wait: not one listener more.
      expect(listeners()).toEqual(withOneCall);
      expect([...(await first), ...(await more)].every(failsClosed)).toBe(true);
      // The wait let go of its one listener per event, and the slot map was read again once, not 50 times.
      expect(listeners()).toEqual(withOneCall.map((count) => count - 1));
      expect(refreshes).toBe(1);
    } finally {
      node.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

function countRefreshes(client: Cluster): () => number {
  let count = 0;
  const refresh = client.refreshSlotsCache.bind(client);
  client.refreshSlotsCache = (...args: Parameters<Cluster['refreshSlotsCache']>) => {
    count += 1;
    return refresh(...args);
  };
  return () => count;
}

const SETTLING = ['ready', 'close', 'end'] as const;

/** Every key under `prefix` on every master. */
async function keysUnder(client: Cluster, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of client.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}
