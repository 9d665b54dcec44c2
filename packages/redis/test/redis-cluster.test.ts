import { describeStoreConformance, newSessionFixture, reachService } from '@sessauth/conformance';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore, createRedisClusterClient } from '../src/index.js';
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

describe('redis cluster: key placement', () => {
  let client: Cluster | null = null;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(async () => {
    await client?.quit();
  });

  it('puts every key of one user in one slot, and findSession works from the id alone', async (test) => {
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
    const slots = await Promise.all(userKeys.map((key) => client!.cluster('KEYSLOT', key)));
    expect(new Set(slots).size).toBe(1);
  });

  it('checkPersistence asks every master (these run without AOF: one warning each)', async (test) => {
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
