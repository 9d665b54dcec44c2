import { MemorySessionStore, SessauthError, createSessauth, type Sessauth, type UserPort } from '@sessauth/core';
import type { SessauthRequest } from '@sessauth/core/adapter';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../src/index.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis } from './redis-test-kit.js';

interface NoUser {
  readonly id: string;
}

const nobody: UserPort<NoUser> = {
  findById: async () => null,
  idOf: (user) => user.id,
  securityStamp: () => 'stamp',
};

/** A login from `peer` as an adapter hands it over; every credential is wrong, only the throttle counts. */
function loginFrom(peer: string, username: string): SessauthRequest {
  const body = new TextEncoder().encode(JSON.stringify({ username, password: 'wrong-password' }));
  return {
    method: 'POST',
    path: '/auth/login/',
    headers: new Map([
      ['content-type', ['application/json']],
      ['user-agent', ['privacy-test']],
    ]),
    peerAddress: peer,
    secure: false,
    readBody: async () => body,
  };
}

const PEERS = ['198.51.100.73', '2001:db8:4d2:17::9'] as const;
// Every spelling an IP could take in a key: the address, its /64, the IPv6 groups.
const FORBIDDEN = ['198.51.100.73', '198.51.100', '2001:db8:4d2:17', '2001:0db8', 'db8:4d2', 'alice-the-user'];

describe('RedisRateLimitStore keeps no client identity in Redis', () => {
  let client: Redis | null = null;
  const keyPrefix = randomPrefix();
  let auth: Sessauth<NoUser>;

  beforeAll(async () => {
    client = await reachLocalRedis();
    if (client === null) return;
    auth = await createSessauth<NoUser>({
      options: {
        secretKey: 'privacy-test-secret-0123456789abcdef0123456789',
        issuer: 'https://issuer.test',
        audience: 'privacy-test',
        loginThrottleRate: '3/min',
      },
      store: new MemorySessionStore(),
      rateLimitStore: new RedisRateLimitStore({ client, keyPrefix }),
      users: nobody,
      authenticator: async () => {
        throw new SessauthError('invalid_credentials');
      },
    });
  });
  afterAll(async () => {
    if (client === null) return;
    await deleteByPrefix(client, keyPrefix);
    await client.quit();
  });

  it('login throttling from an IPv4 and an IPv6 client writes only digests, and still counts', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    for (const peer of PEERS) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await auth.handle(loginFrom(peer, 'alice-the-user')))!.status);
      // The counters work on the digests: three wrong passwords, then the limit.
      expect(statuses).toEqual([401, 401, 401, 429]);
    }

    // Every key under the prefix: a full SCAN (one batch may miss keys on a shared server).
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    expect(keys).toHaveLength(PEERS.length); // one counter per client identity
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^${keyPrefix}rl:[A-Za-z0-9_-]{43}$`));
      for (const raw of FORBIDDEN) expect(key.toLowerCase()).not.toContain(raw);
      // The value is a bare count: nothing else to leak.
      expect(await client.get(key)).toBe('4');
    }
  });
});
