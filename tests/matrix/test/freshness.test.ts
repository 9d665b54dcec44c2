// The freshness guarantee of coalesced session reads (JWT_COALESCE_SESSION_READS), as a test:
// two app servers (two engines, each with its own pool or client) over one shared store; a
// revocation acknowledged by one server is seen by every guarded request the other receives
// afterwards, while that server is batching its reads. Four revocation kinds, 1,000 trials per
// store (the Kysely store on PostgreSQL and MariaDB, Redis, and the Drizzle and Prisma stores on
// PostgreSQL), 0 successes allowed.
import { randomBytes } from 'node:crypto';
import { type AppUnderTest, reachService, serveOnLoopback } from '@sessauth/conformance';
import { createSessauth, SessauthError, type Sessauth, type SessionStore } from '@sessauth/core';
import { requireAuth, sessauthMiddleware } from '@sessauth/express';
import { createKyselyStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { createRedisClient, RedisSessionStore } from '@sessauth/redis';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropKyselyTables } from '../src/drop-kysely-tables.js';
import { drizzlePgShared, prismaPgShared, type SharedStore } from '../src/orm-stores.js';

const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const KINDS = ['logout', 'delete', 'logout-all', 'reuse'] as const;
type Kind = (typeof KINDS)[number];
const TRIALS_PER_KIND = 250;
/** Trials run side by side, so the reading server always has reads in flight and batches. */
const PARALLEL = 16;
/** Guarded requests sent at once after each acknowledged revocation. */
const BURST = 4;

async function sqlShared(url: string): Promise<SharedStore> {
  const [first, second] = [await openKyselyFromUrl(url, { poolSize: 8 }), await openKyselyFromUrl(url, { poolSize: 8 })];
  const tableName = `sessauth_fresh_${randomBytes(4).toString('hex')}`;
  await migrateToLatest(first.db, { tableName, rateLimitTableName: `${tableName}_rl` });
  return {
    stores: [
      createKyselyStore(first.db, { tableName, directReads: first.directReads }),
      createKyselyStore(second.db, { tableName, directReads: second.directReads }),
    ],
    close: async () => {
      await dropKyselyTables(first, tableName, `${tableName}_rl`);
      await Promise.all([first.destroy(), second.destroy()]);
    },
  };
}

async function redisShared(): Promise<SharedStore> {
  const clients = [await createRedisClient(REDIS_URL), await createRedisClient(REDIS_URL)] as const;
  const keyPrefix = `sessauth-fresh-${randomBytes(4).toString('hex')}:`;
  return {
    stores: [new RedisSessionStore({ client: clients[0], keyPrefix }), new RedisSessionStore({ client: clients[1], keyPrefix })],
    close: async () => {
      const keys = await clients[0].keys(`${keyPrefix}*`);
      if (keys.length > 0) await clients[0].del(...keys);
      for (const client of clients) client.disconnect();
    },
  };
}

/** The store, with its batched reads counted (to show the reading server did batch). */
function countingBatches(store: SessionStore, counter: { batches: number }): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'findSessions' && typeof value === 'function') {
        return (ids: readonly string[]) => {
          counter.batches += 1;
          return (value as (ids: readonly string[]) => unknown).call(target, ids);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface User {
  readonly id: string;
}

function engine(store: SessionStore): Promise<Sessauth<User>> {
  return createSessauth<User>({
    options: {
      secretKey: 'freshness-test-secret-0123456789abcdefghijklmnopqrstuv',
      issuer: 'https://issuer.test',
      audience: 'sessauth-freshness',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      coalesceSessionReads: true,
    },
    store,
    users: { findById: async (id) => ({ id }), idOf: (user) => user.id, securityStamp: () => 'stamp-1' },
    authenticator: async () => {
      throw new SessauthError('invalid_credentials');
    },
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

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { 'content-type': 'application/json' };

/**
 * One trial: a fresh user's session, seen live on B; revoked through A (the response is the
 * acknowledgement); then a burst of guarded requests on B. Returns how many of the burst got in.
 */
async function trial(kind: Kind, index: number, a: Server, b: Server): Promise<number> {
  const userId = `u-${kind}-${index}-${randomBytes(4).toString('hex')}`;
  const target = await a.auth.createSessionFor(userId, { ip: null });
  // Live on B before the revocation (B also caches what it may, e.g. Redis' session owner).
  expect((await fetch(`${b.app.baseUrl}/me`, { headers: bearer(target.access_token) })).status).toBe(200);
  const tokens = [target.access_token];
  if (kind === 'logout') {
    expect((await fetch(`${a.app.baseUrl}/auth/logout/`, { method: 'POST', headers: bearer(target.access_token) })).status).toBe(200);
  } else if (kind === 'delete') {
    const other = await a.auth.createSessionFor(userId, { ip: null });
    const deleted = await fetch(`${a.app.baseUrl}/auth/sessions/${target.session_id}/`, { method: 'DELETE', headers: bearer(other.access_token) });
    expect(deleted.status).toBe(200);
  } else if (kind === 'logout-all') {
    const other = await a.auth.createSessionFor(userId, { ip: null });
    tokens.push(other.access_token);
    expect((await fetch(`${a.app.baseUrl}/auth/logout/all/`, { method: 'POST', headers: bearer(other.access_token) })).status).toBe(200);
  } else {
    const refresh = (token: string) =>
      fetch(`${a.app.baseUrl}/auth/refresh/`, { method: 'POST', headers: json, body: JSON.stringify({ refresh_token: token }) });
    const rotated = await refresh(target.refresh_token);
    expect(rotated.status).toBe(200);
    tokens.push(((await rotated.json()) as { access_token: string }).access_token);
    const reused = await refresh(target.refresh_token);
    expect(reused.status).toBe(401);
    expect(((await reused.json()) as { error_code: string }).error_code).toBe('token_reuse_detected');
  }
  const burst = await Promise.all(
    Array.from({ length: BURST }, (_, request) => fetch(`${b.app.baseUrl}/me`, { headers: bearer(tokens[request % tokens.length] as string) })),
  );
  for (const response of burst) expect([200, 401]).toContain(response.status);
  return burst.filter((response) => response.status === 200).length;
}

interface Server {
  readonly auth: Sessauth<User>;
  readonly app: AppUnderTest;
}

const SHARED_STORES: ReadonlyArray<readonly [string, string, () => Promise<SharedStore>]> = [
  ['postgres', 'PostgreSQL 127.0.0.1:5432', () => sqlShared(POSTGRES_URL)],
  ['mysql', 'MariaDB/MySQL 127.0.0.1:3306', () => sqlShared(MYSQL_URL)],
  ['redis', 'Redis 127.0.0.1:6379', redisShared],
  ['drizzle-postgres', 'PostgreSQL 127.0.0.1:5432', () => drizzlePgShared(POSTGRES_URL)],
  ['prisma-postgres', 'PostgreSQL 127.0.0.1:5432', () => prismaPgShared(POSTGRES_URL)],
];

for (const [name, service, open] of SHARED_STORES) {
  describe(`freshness under coalesced reads: two servers over one ${name} store`, () => {
    let shared: SharedStore | null = null;
    let a: Server;
    let b: Server;
    const counter = { batches: 0 };
    beforeAll(async () => {
      shared = await reachService(service, open);
      if (shared === null) return;
      const [authA, authB] = [await engine(shared.stores[0]), await engine(countingBatches(shared.stores[1], counter))];
      a = { auth: authA, app: await serve(authA) };
      b = { auth: authB, app: await serve(authB) };
    }, 30_000);
    afterAll(async () => {
      if (shared === null) return;
      await Promise.all([a.app.close(), b.app.close()]);
      await shared.close();
    });

    it(`a revocation acknowledged on one server: 0 of ${KINDS.length * TRIALS_PER_KIND} trials' bursts get in on the other`, async (test) => {
      if (shared === null) return test.skip(`${service} is unreachable (named in the skip line above)`);
      const jobs = KINDS.flatMap((kind) => Array.from({ length: TRIALS_PER_KIND }, (_, index) => [kind, index] as const));
      const admitted: Record<Kind, number> = { logout: 0, delete: 0, 'logout-all': 0, reuse: 0 };
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) admitted[job[0]] += await trial(job[0], job[1], a, b);
        }),
      );
      expect(admitted).toEqual({ logout: 0, delete: 0, 'logout-all': 0, reuse: 0 });
      // The reading server did batch (otherwise this proved nothing about coalescing).
      expect(counter.batches).toBeGreaterThan(0);
    }, 120_000);
  });
}
