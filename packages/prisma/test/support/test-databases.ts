import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { PrismaPg } from '@prisma/adapter-pg';
import { reachService } from '@sessauth/conformance';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import type { PrismaProvider } from '../../src/index.js';
import { PrismaClient as MysqlClient } from '../.generated/mysql/client/client.js';
import { PrismaClient as PostgresqlClient } from '../.generated/postgresql/client/client.js';
import { PrismaClient as SqliteClient } from '../.generated/sqlite/client/client.js';
import type { Dialect, RowQuery } from './describe-schema.js';

export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export type AnyPrismaClient = PostgresqlClient | MysqlClient | SqliteClient;

/** One Prisma Client (its own pool) over this run's database, and how to let go of it. */
export interface ClientHandle {
  readonly prisma: AnyPrismaClient;
  close(): Promise<void>;
}

/**
 * A namespace of this run's own (a PostgreSQL schema, a MariaDB database, a SQLite file): the
 * generated client names the tables as `@@map` does, so a run cannot rename them. Its tables are
 * made by the package's own migration for the provider, unless the test makes them itself.
 */
export interface TestDatabase extends ClientHandle {
  readonly provider: PrismaProvider;
  readonly dialect: Dialect;
  /** Store options for this database (PostgreSQL: its schema). */
  readonly options: { provider: PrismaProvider; schema?: string };
  /** Another client (its own pool) over the same database: a second app server. */
  connect(): Promise<ClientHandle>;
  /** Runs SQL statements on the database, outside Prisma (to break or inspect the schema). */
  execute(sql: string): Promise<void>;
  /** Runs one query outside Prisma and hands back its rows. */
  rows: RowQuery;
  /** The namespace as a `@sessauth/kysely` URL. */
  readonly url: string;
}

/** `migration`: the package's migration made the tables; `empty`: the test makes them. */
export type Tables = 'migration' | 'empty';

export interface TestTarget {
  readonly label: string;
  readonly provider: PrismaProvider;
  /** null (and a loud line) when the server is unreachable, unless CI requires it. */
  open(tables?: Tables): Promise<TestDatabase | null>;
}

/** Every migration of the provider's folder (PostgreSQL has one more, the login function), in order, as one script. */
const migration = (folder: string) =>
  readdirSync(fileURLToPath(new URL(`../../prisma/${folder}/migrations/`, import.meta.url)))
    .sort()
    .map((step) => readFileSync(fileURLToPath(new URL(`../../prisma/${folder}/migrations/${step}/migration.sql`, import.meta.url)), 'utf8'))
    .join('\n');

const suffix = () => randomBytes(4).toString('hex');

async function openPostgres(tables: Tables): Promise<TestDatabase> {
  const schema = `sessauth_prisma_${suffix()}`;
  const admin = new pg.Client(POSTGRES_URL);
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const execute = async (sql: string) => void (await admin.query(`set search_path to ${schema}; ${sql}`));
  if (tables === 'migration') await execute(migration('postgresql'));
  // >= 10 connections, so the rotation race and the login-cap race are real races.
  const connect = async (): Promise<ClientHandle> => {
    const prisma = new PostgresqlClient({ adapter: new PrismaPg({ connectionString: POSTGRES_URL, max: 20 }, { schema }) });
    return { prisma, close: () => prisma.$disconnect() };
  };
  const first = await connect();
  return {
    ...first,
    provider: 'postgresql',
    dialect: 'postgres',
    options: { provider: 'postgresql', schema },
    connect,
    execute,
    rows: async (sql, parameters) => {
      await admin.query(`set search_path to ${schema}`);
      return (await admin.query(sql, parameters)).rows;
    },
    url: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async close() {
      await first.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

async function openMysql(tables: Tables): Promise<TestDatabase> {
  const admin = await createConnection({ uri: MYSQL_URL, multipleStatements: true });
  const database = `sessauth_prisma_${suffix()}`;
  const [[version]] = (await admin.query('select version() as v')) as unknown as [[{ v: string }]];
  const mariadb = /mariadb/i.test(version?.v ?? '');
  await admin.query(`create database ${database}`);
  await admin.query(`use ${database}`);
  const execute = async (sql: string) => void (await admin.query(sql));
  if (tables === 'migration') await execute(migration(mariadb ? 'mariadb' : 'mysql'));
  const url = new URL(MYSQL_URL);
  const connect = async (): Promise<ClientHandle> => {
    const adapter = new PrismaMariaDb({ host: url.hostname, port: Number(url.port || 3306), user: url.username, database, connectionLimit: 20 });
    const prisma = new MysqlClient({ adapter });
    return { prisma, close: () => prisma.$disconnect() };
  };
  const first = await connect();
  return {
    ...first,
    provider: 'mysql',
    dialect: 'mysql',
    options: { provider: 'mysql' },
    connect,
    execute,
    rows: async (sql, parameters) => (await admin.query(sql, parameters))[0] as Array<Record<string, unknown>>,
    url: `mysql://${url.username}@${url.host}/${database}`,
    async close() {
      await first.close();
      await admin.query(`drop database ${database}`);
      await admin.end();
    },
  };
}

async function openSqlite(tables: Tables): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-prisma-'));
  const file = join(dir, 'sessions.db');
  const admin = new Database(file);
  admin.pragma('journal_mode = WAL');
  if (tables === 'migration') admin.exec(migration('sqlite'));
  const connect = async (): Promise<ClientHandle> => {
    // No busy wait in the driver (it would block the event loop that must finish the other
    // connection's transaction): the store retries SQLITE_BUSY itself, as the README advises.
    const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 0 }) });
    return { prisma, close: () => prisma.$disconnect() };
  };
  const first = await connect();
  return {
    ...first,
    provider: 'sqlite',
    dialect: 'sqlite',
    options: { provider: 'sqlite' },
    connect,
    execute: async (sql) => void admin.exec(sql),
    rows: async (sql, parameters) => admin.prepare(sql).all(...(parameters ?? [])) as Array<Record<string, unknown>>,
    url: `sqlite:${file}`,
    async close() {
      await first.close();
      admin.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const postgresTarget: TestTarget = {
  label: 'PostgreSQL 127.0.0.1:5432 (adapter-pg)',
  provider: 'postgresql',
  open: (tables = 'migration') => reachService('PostgreSQL 127.0.0.1:5432', () => openPostgres(tables)),
};

export const mysqlTarget: TestTarget = {
  label: 'MariaDB 127.0.0.1:3306 (adapter-mariadb)',
  provider: 'mysql',
  open: (tables = 'migration') => reachService('MariaDB/MySQL 127.0.0.1:3306', () => openMysql(tables)),
};

export const sqliteTarget: TestTarget = {
  label: 'SQLite file (adapter-better-sqlite3)',
  provider: 'sqlite',
  open: (tables = 'migration') => openSqlite(tables),
};

export const ALL_TARGETS: readonly TestTarget[] = [postgresTarget, mysqlTarget, sqliteTarget];
