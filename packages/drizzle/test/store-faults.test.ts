import { createServer, type Server, type Socket } from 'node:net';
import { SessauthError, StoreUnavailableError, type SessionStore } from '@sessauth/core';
import { expectEveryStoreCallUnavailable } from '@sessauth/conformance';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { createPool, type Pool as MysqlPool } from 'mysql2';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleRateLimitStore, DrizzleSessionStore } from '../src/index.js';
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
const expectEveryCallUnavailable = (store: SessionStore) => expectEveryStoreCallUnavailable(store, '@sessauth/drizzle', OPTIONAL_CALLS);

describe('a store whose database cannot answer fails closed with StoreUnavailableError', () => {
  // Accepts TCP connections and never answers: the "hung database" case.
  let silent: Server;
  const sockets = new Set<Socket>();
  let silentPort = 0;
  const pools: Array<pg.Pool | MysqlPool> = [];
  beforeAll(async () => {
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(pools.map((pool) => (pool instanceof pg.Pool ? pool.end() : pool.promise().end()).catch(() => undefined)));
    await new Promise((resolve) => silent.close(resolve));
  });
  const postgres = (port: number) => {
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'test', connectionTimeoutMillis: 500, max: 2 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return drizzlePg(pool);
  };
  const mysql = (port: number) => {
    const pool = createPool({ host: '127.0.0.1', port, user: 'root', database: 'test', connectTimeout: 500, connectionLimit: 2 });
    pools.push(pool);
    return drizzleMysql(pool);
  };

  it('PostgreSQL on a closed port (127.0.0.1:1): every method rejects, the rate limiter too', async () => {
    await expectEveryCallUnavailable(new DrizzleSessionStore(postgres(1), { activity: true, securityEventOutbox: true }));
    await expect(new DrizzleRateLimitStore(postgres(1)).hit('k', 60, new Date())).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 15_000);

  it('MySQL on a closed port (127.0.0.1:1): every method rejects, the rate limiter too', async () => {
    await expectEveryCallUnavailable(new DrizzleSessionStore(mysql(1), { activity: true, securityEventOutbox: true }));
    await expect(new DrizzleRateLimitStore(mysql(1)).hit('k', 60, new Date())).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 15_000);

  for (const [label, open] of [
    ['PostgreSQL', postgres],
    ['MySQL', mysql],
  ] as const) {
    it(`${label} that accepts but never answers: a call rejects at its deadline (operationTimeoutMs)`, async () => {
      const store = new DrizzleSessionStore(open(silentPort), { operationTimeoutMs: 300 });
      const started = Date.now();
      const error = await store.findSession('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toBe('@sessauth/drizzle: findSession timed out after 300 ms');
      expect((error as StoreUnavailableError).operation).toBe('findSession');
      expect(Date.now() - started).toBeLessThan(3000);
    }, 10_000);
  }

  it('tables that were never created: every method rejects', async () => {
    const database = await sqliteTarget.open();
    try {
      const { sessauthSqliteTables } = await import('../src/sqlite/schema.js');
      await expectEveryCallUnavailable(
        new DrizzleSessionStore(database!.db, {
          tables: sessauthSqliteTables({ tableName: 'never_created' }),
          activity: true,
          securityEventOutbox: true,
        }),
      );
    } finally {
      await database?.close();
    }
  });

  it('the error keeps the driver error as its cause', async () => {
    const error = await new DrizzleSessionStore(postgres(1)).findSession('some-session-id').catch((e: unknown) => e);
    expect((error as StoreUnavailableError).code).toBe('service_unavailable');
    expect((error as Error).message).toBe('@sessauth/drizzle: findSession failed');
    expect((error as Error).cause).toBeInstanceOf(Error);
  }, 10_000);
});

describe('client input is not a store fault', () => {
  it('a malformed admin cursor is 400 invalid_request, not 503', async () => {
    const database = await sqliteTarget.open();
    try {
      const store = new DrizzleSessionStore(database!.db, { tables: database!.tables });
      const error = await store.listSessionsForAdmin({ now: new Date(), limit: 5, after: 'not a cursor!' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessauthError);
      expect(error).not.toBeInstanceOf(StoreUnavailableError);
      expect((error as SessauthError).code).toBe('invalid_request');
    } finally {
      await database?.close();
    }
  });
});
