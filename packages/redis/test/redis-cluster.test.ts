import { describeStoreConformance, newSessionFixture, reachService } from '@sessauth/conformance';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '@sessauth/core';
import { RedisSessionStore, createRedisClusterClient } from '../src/index.js';
import { keySlot } from '../src/key-slot.js';
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

describe('redis cluster: a pipeline goes to the connection of its slot, never through the Cluster router', () => {
  // ioredis routes each command of a `Cluster` pipeline on its own; while its slot map has no usable
  // owner (a failover, a MOVED through natMap) it picks a random node per command and can split one
  // pipeline over two connections, after which one connection's replies go to the wrong commands
  // (the failover soak lost live sessions that way). The store sends its pipelines on the node.
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
    // The owners cached (the writer) and not (a fresh store): both kinds of pipeline of the read.
    for (const reader of [writer, new RedisSessionStore({ client: routerless, keyPrefix })]) {
      const found = await reader.findSessions(sessions.map((session) => session.id));
      expect([...found.keys()].sort()).toEqual(sessions.map((session) => session.id).sort());
      for (const session of sessions) expect(found.get(session.id)).toMatchObject({ id: session.id, userId: session.userId });
    }
  });

  it('a slot whose primary the client does not know fails closed (503), and works again once the map is read anew', async (test) => {
    const client = clientOf();
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const keyPrefix = randomPrefix();
    const session = newSessionFixture({ userId: 'lost-slot' });
    const store = new RedisSessionStore({ client, keyPrefix });
    await store.createSession({ session, maxActiveSessions: 5 });
    const slot = keySlot(`${keyPrefix}{u:lost-slot}:s:${session.id}`);
    // What a MOVED through natMap leaves in ioredis' map: a node key of no connection.
    client.slots[slot] = ['127.0.0.1:1'];
    await expect(store.findSessions([session.id])).rejects.toBeInstanceOf(StoreUnavailableError);
    // The store asked for a fresh map; the next reads find the session again.
    const deadline = Date.now() + 10_000;
    let found: Map<string, unknown> | null = null;
    while (found === null && Date.now() < deadline) {
      found = await store.findSessions([session.id]).catch(() => null);
      if (found === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found?.get(session.id)).toMatchObject({ id: session.id });
  });
});

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
