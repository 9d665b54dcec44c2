// DPoP proof replay across instances (RFC 9449 s11.1): two app servers (two engines, each with its
// own pool or client) over one shared session store and one shared rate-limit store, as two
// instances behind one public URL. A proof accepted by one server, replayed to the other within
// its `iat` window, is refused there: the `jti` record lives in the shared store, not in a process.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { type AppUnderTest, makeDpopKey, reachService, serveOnLoopback, signProof } from '@sessauth/conformance';
import { createSessauth, type RateLimitStore, type Sessauth, type SessionStore } from '@sessauth/core';
import { requireAuth, sessauthMiddleware } from '@sessauth/express';
import { createKyselyStore, KyselyRateLimitStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { createRedisClient, RedisRateLimitStore, RedisSessionStore } from '@sessauth/redis';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropKyselyTables } from '../src/drop-kysely-tables.js';

const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The one public origin both instances serve (a load balancer's); each request names it in `Host`. */
const PUBLIC_HOST = 'api.example.test';

interface Instance {
  readonly store: SessionStore;
  readonly rateLimitStore: RateLimitStore;
}

interface SharedStores {
  readonly instances: readonly [Instance, Instance];
  close(): Promise<void>;
}

async function sqlShared(url: string): Promise<SharedStores> {
  const [first, second] = [await openKyselyFromUrl(url, { poolSize: 4 }), await openKyselyFromUrl(url, { poolSize: 4 })];
  const tableName = `sessauth_dpop_${randomBytes(4).toString('hex')}`;
  const rateLimitTableName = `${tableName}_rl`;
  await migrateToLatest(first.db, { tableName, rateLimitTableName });
  const instance = (opened: typeof first): Instance => ({
    store: createKyselyStore(opened.db, { tableName, directReads: opened.directReads }),
    rateLimitStore: new KyselyRateLimitStore(opened.db, { tableName: rateLimitTableName }),
  });
  return {
    instances: [instance(first), instance(second)],
    close: async () => {
      await dropKyselyTables(first, tableName, rateLimitTableName);
      await Promise.all([first.destroy(), second.destroy()]);
    },
  };
}

async function redisShared(): Promise<SharedStores> {
  const clients = [await createRedisClient(REDIS_URL), await createRedisClient(REDIS_URL)] as const;
  const keyPrefix = `sessauth-dpop-${randomBytes(4).toString('hex')}:`;
  const instance = (client: (typeof clients)[number]): Instance => ({
    store: new RedisSessionStore({ client, keyPrefix }),
    rateLimitStore: new RedisRateLimitStore({ client, keyPrefix: `${keyPrefix}rl:` }),
  });
  return {
    instances: [instance(clients[0]), instance(clients[1])],
    close: async () => {
      const keys = await clients[0].keys(`${keyPrefix}*`);
      if (keys.length > 0) await clients[0].del(...keys);
      for (const client of clients) client.disconnect();
    },
  };
}

interface User {
  readonly id: string;
}

function engine(instance: Instance): Promise<Sessauth<User>> {
  return createSessauth<User>({
    options: {
      secretKey: 'dpop-replay-test-secret-0123456789abcdefghijklmnopqrstuv',
      issuer: 'https://issuer.test',
      audience: 'sessauth-dpop-replay',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      dpop: 'allowed',
    },
    store: instance.store,
    rateLimitStore: instance.rateLimitStore,
    users: { findById: async (id) => ({ id }), idOf: (user) => user.id, securityStamp: () => 'stamp-1' },
    // The test signs in whoever it names: the proofs, not the password, are under test.
    authenticator: async (body) => ({ id: String(body.username) }),
  });
}

async function serve(auth: Sessauth<User>): Promise<AppUnderTest> {
  const app = express();
  app.use(sessauthMiddleware(auth));
  app.get('/me', requireAuth(auth), (_req, res) => {
    res.json({ ok: true });
  });
  return serveOnLoopback(app);
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly challenge: string | undefined;
}

/** One request over node:http, naming the public host in `Host` as a load balancer passes it on. */
function send(server: AppUnderTest, method: string, path: string, headers: Record<string, string>, json?: unknown): Promise<Answer> {
  const url = new URL(path, server.baseUrl);
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method, headers: { ...headers, host: PUBLIC_HOST, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const challenge = response.headers['www-authenticate'];
          resolve({ status: response.statusCode ?? 0, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), challenge });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const SHARED: ReadonlyArray<readonly [string, string, () => Promise<SharedStores>]> = [
  ['postgres', 'PostgreSQL 127.0.0.1:5432', () => sqlShared(POSTGRES_URL)],
  ['mysql', 'MariaDB/MySQL 127.0.0.1:3306', () => sqlShared(MYSQL_URL)],
  ['redis', 'Redis 127.0.0.1:6379', redisShared],
];

for (const [name, service, open] of SHARED) {
  describe(`DPoP replay across two servers over one ${name} store`, () => {
    let shared: SharedStores | null = null;
    let a: AppUnderTest;
    let b: AppUnderTest;
    beforeAll(async () => {
      shared = await reachService(service, open);
      if (shared === null) return;
      a = await serve(await engine(shared.instances[0]));
      b = await serve(await engine(shared.instances[1]));
    }, 30_000);
    afterAll(async () => {
      if (shared === null) return;
      await Promise.all([a.close(), b.close()]);
      await shared.close();
    });

    it('a proof accepted by one server is refused when replayed to the other (guard, login and refresh)', async (test) => {
      if (shared === null) return test.skip(`${service} is unreachable (named in the skip line above)`);
      const key = await makeDpopKey('ES256');
      const now = () => Math.floor(Date.now() / 1000);
      const proof = (method: string, path: string, accessToken?: string) =>
        signProof(key, { htm: method, htu: `http://${PUBLIC_HOST}${path}`, iat: now(), ...(accessToken === undefined ? {} : { accessToken }) });

      const loginProof = await proof('POST', '/auth/login/');
      const login = await send(a, 'POST', '/auth/login/', { dpop: loginProof }, { username: `u-${randomBytes(4).toString('hex')}`, password: 'x' });
      expect(login.status).toBe(200);
      expect(login.body.token_type).toBe('DPoP');
      const access = login.body.access_token as string;
      // The login's proof, replayed to B, does not start a second session there.
      const replayedLogin = await send(b, 'POST', '/auth/login/', { dpop: loginProof }, { username: 'someone', password: 'x' });
      expect(replayedLogin.status).toBe(401);
      expect(replayedLogin.body.error_code).toBe('invalid_dpop_proof');

      const guarded = { authorization: `DPoP ${access}`, dpop: await proof('GET', '/me', access) };
      expect((await send(a, 'GET', '/me', guarded)).status).toBe(200);
      const replayed = await send(b, 'GET', '/me', guarded);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error_code).toBe('invalid_dpop_proof');
      expect(replayed.challenge).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
      // B itself serves the session with a fresh proof: only the replay was refused.
      expect((await send(b, 'GET', '/me', { authorization: `DPoP ${access}`, dpop: await proof('GET', '/me', access) })).status).toBe(200);

      const refreshProof = await proof('POST', '/auth/refresh/');
      const refreshed = await send(a, 'POST', '/auth/refresh/', { dpop: refreshProof }, { refresh_token: login.body.refresh_token });
      expect(refreshed.status).toBe(200);
      // A thief holding the new refresh token and the captured proof, at B: refused, and the session lives on.
      const stolen = await send(b, 'POST', '/auth/refresh/', { dpop: refreshProof }, { refresh_token: refreshed.body.refresh_token });
      expect(stolen.status).toBe(401);
      expect(stolen.body.error_code).toBe('invalid_dpop_proof');
      const owner = await send(
        b,
        'POST',
        '/auth/refresh/',
        { dpop: await proof('POST', '/auth/refresh/') },
        { refresh_token: refreshed.body.refresh_token },
      );
      expect(owner.status).toBe(200);
    }, 60_000);
  });
}
