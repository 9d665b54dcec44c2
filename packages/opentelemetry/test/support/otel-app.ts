import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppUnderTest, reachService, serveOnLoopback } from '@sessauth/conformance';
import {
  createPasswordAuthenticator,
  createSessauth,
  MemoryRateLimitStore,
  MemorySessionStore,
  type RateLimitStore,
  type Sessauth,
  type SessionStore,
} from '@sessauth/core';
import { createArgon2PasswordHasher } from '@sessauth/core/argon2';
import { requireAuth, sessauthMiddleware } from '@sessauth/express';
import { createRedisClient, createRedisRateLimitStore, createRedisStore } from '@sessauth/redis';
import { KyselyRateLimitStore, createKyselyStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import express from 'express';
import { type SessauthOpenTelemetry, sessauthOpenTelemetry } from '../../src/index.js';
import type { TelemetryHarness } from './telemetry-harness.js';

export const USERNAME = 'otel-alice@example.test';
export const PASSWORD = 'correct horse battery staple 42';
export const WRONG_PASSWORD = 'wrong horse battery staple 43';

interface OtelUser {
  readonly id: string;
  readonly username: string;
}

/** One store the engine runs on, opened fresh for one test file. */
export interface StoreUnderTest {
  readonly label: string;
  /** `db.system.name` passed to the instrumentation; null for the memory store. */
  readonly system: string | null;
  readonly kind: string;
  open(): Promise<{ store: SessionStore; rateLimitStore: RateLimitStore; close(): Promise<void> }>;
}

export const memoryStore: StoreUnderTest = {
  label: 'memory',
  system: null,
  kind: 'MemorySessionStore',
  open: async () => ({ store: new MemorySessionStore(), rateLimitStore: new MemoryRateLimitStore(), close: async () => undefined }),
};

/** A SQLite file through @sessauth/kysely, migrated under table names of its own. */
export const sqliteStore: StoreUnderTest = {
  label: 'SQLite (Kysely)',
  system: 'sqlite',
  kind: 'KyselySessionStore',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessauth-otel-'));
    const opened = await openKyselyFromUrl(`sqlite:${join(dir, 'sessions.db')}`);
    const suffix = Math.random().toString(36).slice(2, 10);
    const tableName = `sessauth_otel_session_${suffix}`;
    const rateLimitTableName = `sessauth_otel_rate_${suffix}`;
    await migrateToLatest(opened.db, { tableName, rateLimitTableName });
    return {
      store: createKyselyStore(opened.db, { tableName, operationTimeoutMs: opened.operationTimeoutMs }),
      rateLimitStore: new KyselyRateLimitStore(opened.db, { tableName: rateLimitTableName }),
      close: async () => {
        await opened.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The Redis store on the local server under a key prefix of its own (its keys deleted after),
 * or null when the server is unreachable: a loud skip, a failure under SESSAUTH_REQUIRE_SERVICES=1.
 */
export async function redisStoreIfReachable(): Promise<StoreUnderTest | null> {
  const probe = await reachService(`Redis at ${REDIS_URL}`, () => createRedisClient(REDIS_URL));
  if (probe === null) return null;
  await probe.quit();
  return {
    label: 'Redis',
    system: 'redis',
    kind: 'RedisSessionStore',
    open: async () => {
      const client = await createRedisClient(REDIS_URL);
      const keyPrefix = `sessauth-otel-test:${randomBytes(6).toString('hex')}:`;
      return {
        store: createRedisStore(client, { keyPrefix }),
        rateLimitStore: createRedisRateLimitStore(client, { keyPrefix }),
        close: async () => {
          let cursor = '0';
          do {
            const [next, keys] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
            cursor = next;
            for (const key of keys) await client.del(key);
          } while (cursor !== '0');
          await client.quit();
        },
      };
    },
  };
}

export interface OtelApp {
  readonly auth: Sessauth<OtelUser>;
  readonly app: AppUnderTest;
  readonly telemetry: SessauthOpenTelemetry;
  close(): Promise<void>;
}

/**
 * An Express app on 127.0.0.1 with the engine instrumented: the login, refresh and session
 * routes through the middleware, a host route `/me` behind `requireAuth` (the guard), real
 * argon2id whose turns the instrumentation records, and the login throttle at 4 per minute.
 */
export async function startOtelApp(storeUnderTest: StoreUnderTest, harness: TelemetryHarness): Promise<OtelApp & { closeStore(): Promise<void> }> {
  const telemetry = sessauthOpenTelemetry({
    tracerProvider: harness.tracerProvider,
    meterProvider: harness.meterProvider,
    ...(storeUnderTest.system === null ? {} : { storeSystem: storeUnderTest.system }),
  });
  const setupHasher = createArgon2PasswordHasher();
  const passwordHash = await setupHasher.hash(PASSWORD);
  const user: OtelUser = { id: 'u-otel-alice', username: USERNAME };
  const users = {
    findById: async (id: string) => (id === user.id ? user : null),
    idOf: (u: OtelUser) => u.id,
    securityStamp: () => 'stamp-1',
    findByUsername: async (name: string) => (name === USERNAME ? { user, passwordHash } : null),
  };
  const opened = await storeUnderTest.open();
  const auth = await createSessauth<OtelUser>({
    options: {
      secretKey: 'otel-test-secret-0123456789abcdefghijklmnopqrstuvwx',
      issuer: 'https://issuer.test',
      audience: 'sessauth-otel-test',
      loginThrottleRate: '4/min',
      refreshThrottleRate: '0',
    },
    store: opened.store,
    rateLimitStore: opened.rateLimitStore,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: createArgon2PasswordHasher({ onTurn: telemetry.recordHasherTurn }) }),
    instrumentation: telemetry,
  });
  const server = express();
  server.use(sessauthMiddleware(auth));
  server.get('/me', requireAuth(auth), (_req, res) => {
    res.json({ ok: true });
  });
  const app = await serveOnLoopback(server);
  let storeClosed = false;
  const closeStore = async (): Promise<void> => {
    if (storeClosed) return;
    storeClosed = true;
    await opened.close();
  };
  return {
    auth,
    app,
    telemetry,
    closeStore,
    close: async () => {
      await app.close();
      await auth.eventsSettled();
      await closeStore();
    },
  };
}
