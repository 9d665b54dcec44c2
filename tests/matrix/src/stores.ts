import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachService, type StoreFactory } from '@sessauth/conformance';
import { MemorySessionStore } from '@sessauth/core';
import { createKyselyStore, migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { RedisSessionStore, createRedisClient } from '@sessauth/redis';
import { CompiledQuery } from 'kysely';
import { dropKyselyTables } from './drop-kysely-tables.js';
import { drizzleStore, prismaStore } from './orm-stores.js';

const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Each cell gets a store of its own (its own tables or key prefix): the HTTP suite
 * purges, so two cells must never share one.
 */
function sqlStore(url: string, onClose: () => void = () => {}): StoreFactory {
  return async () => {
    const opened = await openKyselyFromUrl(url, { poolSize: 10, connectTimeoutMs: 3000 });
    try {
      await opened.db.executeQuery(CompiledQuery.raw('select 1'));
      const tableName = `sessauth_matrix_${randomBytes(4).toString('hex')}`;
      const rateLimitTableName = `${tableName}_rl`;
      await migrateToLatest(opened.db, { tableName, rateLimitTableName });
      const store = createKyselyStore(opened.db, { tableName, directReads: opened.directReads, activity: true });
      const close = async () => {
        try {
          await dropKyselyTables(opened, tableName, rateLimitTableName);
        } finally {
          await opened.destroy();
          onClose();
        }
      };
      return { store, close };
    } catch (error) {
      await opened.destroy();
      throw error;
    }
  };
}

function sqliteStore(): StoreFactory {
  const file = join(tmpdir(), `sessauth-matrix-${randomBytes(4).toString('hex')}.db`);
  return sqlStore(`sqlite:${file}`, () => rmSync(file, { force: true }));
}

function redisStore(): StoreFactory {
  return async () => {
    const client = await createRedisClient(REDIS_URL);
    const keyPrefix = `sessauth-matrix-${randomBytes(4).toString('hex')}:`;
    const store = new RedisSessionStore({ client, keyPrefix });
    return {
      store,
      close: async () => {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
        client.disconnect();
      },
    };
  };
}

/** Wraps a factory so an unreachable server skips loudly, or fails under SESSAUTH_REQUIRE_SERVICES=1. */
function service(name: string, factory: StoreFactory): StoreFactory {
  return () =>
    reachService(name, async () => {
      const handle = await factory();
      if (handle === null) throw new Error('no store');
      return handle;
    });
}

export const STORES: Readonly<Record<string, () => StoreFactory>> = {
  memory: () => async () => ({ store: new MemorySessionStore(), close: async () => {} }),
  sqlite: () => sqliteStore(),
  postgres: () => service('PostgreSQL 127.0.0.1:5432', sqlStore(POSTGRES_URL)),
  mysql: () => service('MariaDB/MySQL 127.0.0.1:3306', sqlStore(MYSQL_URL)),
  redis: () => service('Redis 127.0.0.1:6379', redisStore()),
};

/**
 * The ORM stores, served by one adapter (the Fetch handler's row) only: what a cell proves of a
 * store does not depend on the adapter in front of it, and six more cells per adapter would
 * cost the matrix minutes.
 */
export const ONE_ADAPTER_STORES: Readonly<Record<string, () => StoreFactory>> = {
  'drizzle-sqlite': () => drizzleStore('sqlite', ''),
  'drizzle-postgres': () => service('PostgreSQL 127.0.0.1:5432', drizzleStore('postgres', POSTGRES_URL)),
  'drizzle-mysql': () => service('MariaDB/MySQL 127.0.0.1:3306', drizzleStore('mysql', MYSQL_URL)),
  // MariaDB answering compound statements as MySQL does (a syntax error): the transactions MySQL takes.
  'drizzle-mysql-transactions': () => service('MariaDB/MySQL 127.0.0.1:3306', drizzleStore('mysql', MYSQL_URL, { asMysql: true })),
  'prisma-sqlite': () => prismaStore('sqlite', ''),
  'prisma-postgres': () => service('PostgreSQL 127.0.0.1:5432', prismaStore('postgresql', POSTGRES_URL)),
  'prisma-mysql': () => service('MariaDB/MySQL 127.0.0.1:3306', prismaStore('mysql', MYSQL_URL)),
};
