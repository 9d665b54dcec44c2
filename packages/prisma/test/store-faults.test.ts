import { createServer, type Server, type Socket } from 'node:net';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { PrismaPg } from '@prisma/adapter-pg';
import { SessauthError, StoreUnavailableError, type SessionStore } from '@sessauth/core';
import { expectEveryStoreCallUnavailable } from '@sessauth/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaRateLimitStore, PrismaSessionStore } from '../src/index.js';
import { PrismaClient as MysqlClient } from './.generated/mysql/client/client.js';
import { PrismaClient as PostgresqlClient } from './.generated/postgresql/client/client.js';
import { sqliteTarget } from './support/test-databases.js';

/** The optional operations these stores have with every option on: each must fail closed too. */
const OPTIONAL_CALLS = [
  'recordStepUp',
  'listSessionsForAdmin',
  'checkSchema',
  'appendActivity',
  'listActivity',
  'holdSecurityEvents',
  'releaseSecurityEvents',
  'claimSecurityEvents',
  'settleSecurityEvent',
];

/** Every call of the port (the kit's one list), the optional ones above required. */
const expectEveryCallUnavailable = (store: SessionStore) => expectEveryStoreCallUnavailable(store, '@sessauth/prisma', OPTIONAL_CALLS);

describe('a store whose database cannot answer fails closed with StoreUnavailableError', () => {
  // Accepts TCP connections and never answers: the "hung database" case.
  let silent: Server;
  const sockets = new Set<Socket>();
  let silentPort = 0;
  const clients: Array<{ $disconnect(): Promise<void> }> = [];
  beforeAll(async () => {
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(clients.map((client) => client.$disconnect().catch(() => undefined)));
    await new Promise((resolve) => silent.close(resolve));
  });
  const postgres = (port: number) => {
    const client = new PostgresqlClient({
      adapter: new PrismaPg({ host: '127.0.0.1', port, user: 'postgres', database: 'test', connectionTimeoutMillis: 500 }),
    });
    clients.push(client);
    return client;
  };
  const mysql = (port: number) => {
    const client = new MysqlClient({
      adapter: new PrismaMariaDb({ host: '127.0.0.1', port, user: 'root', database: 'test', connectTimeout: 500, acquireTimeout: 500 }),
    });
    clients.push(client);
    return client;
  };

  it('PostgreSQL on a closed port (127.0.0.1:1): every method rejects, the rate limiter too', async () => {
    await expectEveryCallUnavailable(new PrismaSessionStore(postgres(1), { provider: 'postgresql', activity: true, securityEventOutbox: true }));
    await expect(new PrismaRateLimitStore(postgres(1), { provider: 'postgresql' }).hit('k', 60, new Date())).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  }, 20_000);

  it('MySQL on a closed port (127.0.0.1:1): every method rejects, the rate limiter too', async () => {
    await expectEveryCallUnavailable(new PrismaSessionStore(mysql(1), { provider: 'mysql', activity: true, securityEventOutbox: true }));
    await expect(new PrismaRateLimitStore(mysql(1), { provider: 'mysql' }).hit('k', 60, new Date())).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 20_000);

  for (const [label, open, provider] of [
    ['PostgreSQL', postgres, 'postgresql'],
    ['MySQL', mysql, 'mysql'],
  ] as const) {
    it(`${label} that accepts but never answers: a call rejects at its deadline (operationTimeoutMs)`, async () => {
      const store = new PrismaSessionStore(open(silentPort), { provider, operationTimeoutMs: 300 });
      const started = Date.now();
      const error = await store.findSession('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toBe('@sessauth/prisma: findSession timed out after 300 ms');
      expect((error as StoreUnavailableError).operation).toBe('findSession');
      expect(Date.now() - started).toBeLessThan(3000);
    }, 10_000);
  }

  it('tables dropped under the store: every method rejects', async () => {
    const database = await sqliteTarget.open();
    try {
      for (const table of ['sessauth_session', 'sessauth_session_activity', 'sessauth_session_security_event'])
        await database!.execute(`drop table "${table}"`);
      await expectEveryCallUnavailable(new PrismaSessionStore(database!.prisma, { provider: 'sqlite', activity: true, securityEventOutbox: true }));
    } finally {
      await database?.close();
    }
  });

  it("the error keeps Prisma's error as its cause", async () => {
    const error = await new PrismaSessionStore(postgres(1), { provider: 'postgresql' }).findSession('some-session-id').catch((e: unknown) => e);
    expect((error as StoreUnavailableError).code).toBe('service_unavailable');
    expect((error as Error).message).toBe('@sessauth/prisma: findSession failed');
    expect((error as Error).cause).toBeInstanceOf(Error);
  }, 10_000);
});

describe('client input is not a store fault', () => {
  it('a malformed admin cursor is 400 invalid_request, not 503', async () => {
    const database = await sqliteTarget.open();
    try {
      const store = new PrismaSessionStore(database!.prisma, database!.options);
      const error = await store.listSessionsForAdmin({ now: new Date(), limit: 5, after: 'not a cursor!' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessauthError);
      expect(error).not.toBeInstanceOf(StoreUnavailableError);
      expect((error as SessauthError).code).toBe('invalid_request');
    } finally {
      await database?.close();
    }
  });
});
