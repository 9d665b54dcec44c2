import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachService } from '@sessauth/conformance';
import pg from 'pg';
import { startOwnRedis, REDIS_SERVER } from './stores/redis-server.js';

/** A fresh, empty store for the example servers (`SESSAUTH_STORE`), and how to remove it. */
export interface FreshStore {
  readonly url: string;
  close(): Promise<void>;
}

export interface StoreTarget {
  readonly label: string;
  /** Null: the service is unreachable (skipped loudly; fails under SESSAUTH_REQUIRE_SERVICES=1). */
  open(): Promise<FreshStore | null>;
}

const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/test';

export const SSF_STORE_TARGETS: readonly StoreTarget[] = [
  {
    label: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'sessauth-ssf-sqlite-'));
      return { url: `sqlite:${join(dir, 'sessauth.db')}`, close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    label: 'PostgreSQL',
    async open() {
      const admin = await reachService('PostgreSQL 127.0.0.1:5432', async () => {
        const client = new pg.Client({ connectionString: PG_ADMIN });
        await client.connect();
        return client;
      });
      if (admin === null) return null;
      admin.on('error', () => undefined);
      const database = `sessauth_ssf_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${database}`);
      return {
        url: `postgres://postgres@127.0.0.1:5432/${database}`,
        async close() {
          await admin.query(`drop database if exists ${database} with (force)`);
          await admin.end();
        },
      };
    },
  },
  {
    label: 'Redis',
    async open() {
      // A server of the test's own (append-only, fsync always): nobody else's keys.
      const server = await reachService(`Redis (${REDIS_SERVER}, a server of the test's own)`, startOwnRedis);
      if (server === null) return null;
      return { url: `redis://127.0.0.1:${server.port}`, close: () => server.stop() };
    },
  },
];
