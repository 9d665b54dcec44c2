import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachService } from '@sessauth/conformance';
import { Kysely, MysqlDialect } from 'kysely';
import { createPool, type Pool, type PoolConnection } from 'mysql2';
import { migrateToLatest, type DialectName, type DirectReads } from '../../src/index.js';
import { openKyselyFromUrl } from '../../src/open-from-url.js';
import { dropMigrated } from './drop-migrated.js';

export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

/** One database with migrated tables under names unique to this test run. */
export interface TestDatabase {
  readonly db: Kysely<unknown>;
  readonly dialect: DialectName;
  readonly tableName: string;
  readonly rateLimitTableName: string;
  /** SQLite with prepared statements: the direct-read path of `findSession`. */
  readonly directReads: DirectReads | undefined;
  /** Drops this run's tables and closes the pool. */
  close(): Promise<void>;
}

export interface TestTarget {
  readonly label: string;
  readonly dialect: DialectName;
  /** Resolves to null (and logs loudly) when the server is unreachable, unless CI requires it. */
  open(): Promise<TestDatabase | null>;
}

function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

async function openMigrated(url: string, preparedStatements: boolean, cleanup: () => void = () => undefined): Promise<TestDatabase> {
  // >= 10 connections, so the rotation race and the login cap race are real races.
  const opened = await openKyselyFromUrl(url, { poolSize: 20, connectTimeoutMs: 5000, preparedStatements });
  const suffix = uniqueSuffix();
  const tableName = `sessauth_session_${suffix}`;
  const rateLimitTableName = `sessauth_rate_limit_${suffix}`;
  try {
    await migrateToLatest(opened.db, { tableName, rateLimitTableName });
  } catch (error) {
    await opened.destroy();
    cleanup();
    throw error;
  }
  return {
    db: opened.db,
    dialect: opened.dialect,
    tableName,
    rateLimitTableName,
    directReads: opened.directReads,
    async close() {
      try {
        await dropMigrated(opened.db, opened.dialect, tableName, rateLimitTableName);
      } finally {
        await opened.destroy();
        cleanup();
      }
    },
  };
}

function postgres(preparedStatements: boolean): TestTarget {
  return {
    label: `PostgreSQL 127.0.0.1:5432${preparedStatements ? ' (named statements)' : ''}`,
    dialect: 'postgres',
    open: () => reachService('PostgreSQL 127.0.0.1:5432', () => openMigrated(POSTGRES_URL, preparedStatements)),
  };
}

function sqlite(preparedStatements: boolean): TestTarget {
  return {
    label: `SQLite file${preparedStatements ? ' (statement cache)' : ''}`,
    dialect: 'sqlite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sessauth-kysely-'));
      const url = `sqlite:${join(dir, 'sessions.db')}`;
      return openMigrated(url, preparedStatements, () => rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/** Plain Kysely instances, as a user builds them. */
export const postgresTarget = postgres(false);
export const sqliteTarget = sqlite(false);
export const mysqlTarget = mysql(false);

function mysql(preparedStatements: boolean): TestTarget {
  return {
    label: `MariaDB 127.0.0.1:3306${preparedStatements ? ' (prepared reads)' : ''}`,
    dialect: 'mysql',
    open: () => reachService('MariaDB/MySQL 127.0.0.1:3306', () => openMigrated(MYSQL_URL, preparedStatements)),
  };
}

/**
 * MariaDB answering a compound statement (`BEGIN NOT ATOMIC`) as MySQL does: a syntax error
 * (ER_PARSE_ERROR) before anything ran. The store then takes the transactions it takes on MySQL,
 * which a MySQL server is not here to run: MariaDB stands in for it on that path.
 */
export const mysqlTransactionsTarget: TestTarget = {
  label: 'MariaDB 127.0.0.1:3306 answering compound statements as MySQL',
  dialect: 'mysql',
  open: () =>
    reachService('MariaDB/MySQL 127.0.0.1:3306', async () => {
      const pool = createPool({ uri: MYSQL_URL, connectionLimit: 20, charset: 'utf8mb4' });
      const db = new Kysely<unknown>({ dialect: new MysqlDialect({ pool: refusingCompoundStatements(pool) }) });
      const suffix = uniqueSuffix();
      const tableName = `sessauth_session_${suffix}`;
      const rateLimitTableName = `sessauth_rate_limit_${suffix}`;
      await migrateToLatest(db, { tableName, rateLimitTableName });
      return {
        db,
        dialect: 'mysql',
        tableName,
        rateLimitTableName,
        directReads: undefined,
        async close() {
          try {
            await dropMigrated(db, 'mysql', tableName, rateLimitTableName);
          } finally {
            await db.destroy();
          }
        },
      };
    }),
};

type QueryCallback = (error: Error | null, result?: unknown) => void;
const REFUSING = Symbol('refuses compound statements');

/** The pool's connections, each patched once (kysely keeps one wrapper per raw connection), refusing compound statements. */
function refusingCompoundStatements(pool: Pool): Pool {
  const refusing = (connection: PoolConnection): PoolConnection => {
    const patched = connection as PoolConnection & { [REFUSING]?: true };
    if (patched[REFUSING]) return connection;
    patched[REFUSING] = true;
    const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
    (connection as unknown as { query: unknown }).query = (text: unknown, parameters: unknown, callback: QueryCallback) => {
      if (typeof text === 'string' && /^\s*begin not atomic/i.test(text)) {
        const error = Object.assign(new Error('You have an error in your SQL syntax (as MySQL)'), { errno: 1064, code: 'ER_PARSE_ERROR' });
        setImmediate(() => callback(error));
        return;
      }
      return query(text, parameters, callback);
    };
    return connection;
  };
  const getConnection = pool.getConnection.bind(pool);
  return Object.assign(pool, {
    getConnection: (callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void) =>
      getConnection((error, connection) => callback(error, error === null ? refusing(connection) : connection)),
  });
}

export const ALL_TARGETS: readonly TestTarget[] = [postgresTarget, mysqlTarget, sqliteTarget];

/** The same engines through the optional statement helpers (`openKyselyFromUrl`'s default). */
export const TUNED_TARGETS: readonly TestTarget[] = [postgres(true), mysql(true), sqlite(true)];
