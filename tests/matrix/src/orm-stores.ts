import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { PrismaPg } from '@prisma/adapter-pg';
import type { StoreFactory } from '@sessauth/conformance';
import type { RateLimitStore, SessionStore } from '@sessauth/core';
import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import { type DrizzleDatabase, DrizzleRateLimitStore, DrizzleSessionStore, type SessauthTables } from '@sessauth/drizzle';
import { sessauthMysqlTables } from '@sessauth/drizzle/mysql';
import { sessauthPgLoginFunction, sessauthPgTables } from '@sessauth/drizzle/pg';
import { sessauthSqliteTables } from '@sessauth/drizzle/sqlite';
import { PrismaRateLimitStore, PrismaSessionStore, type PrismaProvider, type SessauthPrismaClient } from '@sessauth/prisma';
import Database from 'better-sqlite3';
import { getTableName, type SQL, type Table } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import {
  generateDrizzleJson,
  generateMigration,
  generateMySQLDrizzleJson,
  generateMySQLMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from 'drizzle-kit/api';
import { createPool } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';

type Engine = 'postgres' | 'mysql' | 'sqlite';

const isMariaDb = async (sql: (q: string) => Promise<unknown>) => /mariadb/i.test(JSON.stringify(await sql('select version() as v')));

/** One cell's drizzle database and tables, with drizzle-kit's statements for them. */
interface DrizzleCell {
  readonly db: DrizzleDatabase;
  readonly tables: SessauthTables;
  readonly ddl: string[];
  run(statement: string): Promise<unknown>;
  close(): Promise<void>;
}

async function drizzleCell(
  engine: Engine,
  url: string,
  names: { tableName: string; rateLimitTableName: string },
  connection: OrmPgOptions['connection'] = {},
): Promise<DrizzleCell> {
  if (engine === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 10, ...connection });
    pool.on('error', () => undefined);
    const tables = sessauthPgTables(names);
    // drizzle-kit's statements, then the custom migration the package's README asks for.
    const ddl = [...(await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ ...tables }))), sessauthPgLoginFunction(names)];
    const close = async () => {
      await pool.query(postgresLoginFunctionDdl(names.tableName).drop);
      await pool.end();
    };
    return { db: drizzlePg(pool), tables, ddl, run: (statement) => pool.query(statement), close };
  }
  if (engine === 'mysql') {
    const pool = createPool({ uri: url, connectionLimit: 10 });
    const run = (statement: string) => pool.promise().query(statement);
    const tables = sessauthMysqlTables({ ...names, collation: (await isMariaDb(run)) ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin' });
    const ddl = await generateMySQLMigration(await generateMySQLDrizzleJson({}), await generateMySQLDrizzleJson({ ...tables }));
    return { db: drizzleMysql(pool), tables, ddl, run, close: () => pool.promise().end() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-matrix-drizzle-'));
  // As the README advises: WAL, and no busy wait in the driver (the store retries SQLITE_BUSY).
  const database = new Database(join(dir, 'sessions.db'), { timeout: 0 });
  database.pragma('journal_mode = WAL');
  const tables = sessauthSqliteTables(names);
  const ddl = await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson({ ...tables }));
  const close = async () => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db: drizzleSqlite(database), tables, ddl, run: async (statement) => database.exec(statement), close };
}

/** A drizzle cell with drizzle-kit's statements run (those `include` keeps), and how to drop its tables and close it. */
async function migratedDrizzleCell(
  engine: Engine,
  url: string,
  names: { tableName: string; rateLimitTableName: string },
  options: { connection?: OrmPgOptions['connection']; include?: (statement: string) => boolean } = {},
): Promise<{ cell: DrizzleCell; close(): Promise<void> }> {
  const cell = await drizzleCell(engine, url, names, options.connection);
  const close = async () => {
    try {
      if (engine !== 'sqlite')
        for (const table of Object.values(cell.tables) as Table[]) await cell.run(`drop table if exists ${getTableName(table)}`);
    } finally {
      await cell.close();
    }
  };
  try {
    for (const statement of cell.ddl) if (options.include?.(statement) ?? true) await cell.run(statement);
  } catch (error) {
    await close();
    throw error;
  }
  return { cell, close };
}

/** The Drizzle store on this cell's tables, made from drizzle-kit's own migration SQL for the package's schema. */
export function drizzleStore(engine: Engine, url: string, options: { readonly asMysql?: boolean } = {}): StoreFactory {
  return async () => {
    const suffix = randomBytes(4).toString('hex');
    const { cell, close } = await migratedDrizzleCell(engine, url, {
      tableName: `sessauth_matrix_${suffix}`,
      rateLimitTableName: `sessauth_matrix_${suffix}_rl`,
    });
    const db = options.asMysql === true ? refusingCompoundStatements(cell.db) : cell.db;
    return { store: new DrizzleSessionStore(db, { tables: cell.tables, activity: true, securityEventOutbox: true }), close };
  };
}

/** Two session stores over the same tables, as two app servers would open them (each its own pool). */
export interface SharedStore {
  readonly stores: readonly [SessionStore, SessionStore];
  close(): Promise<void>;
}

/** Two Drizzle stores (node-postgres, a pool each) on one set of tables made by drizzle-kit. */
export async function drizzlePgShared(url: string): Promise<SharedStore> {
  const suffix = randomBytes(4).toString('hex');
  const cell = await drizzleCell('postgres', url, { tableName: `sessauth_fresh_${suffix}`, rateLimitTableName: `sessauth_fresh_${suffix}_rl` });
  const second = new pg.Pool({ connectionString: url, max: 10 });
  second.on('error', () => undefined);
  const close = async () => {
    try {
      for (const table of Object.values(cell.tables) as Table[]) await cell.run(`drop table if exists ${getTableName(table)}`);
    } finally {
      await Promise.all([cell.close(), second.end()]);
    }
  };
  try {
    for (const statement of cell.ddl) await cell.run(statement);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    stores: [new DrizzleSessionStore(cell.db, { tables: cell.tables }), new DrizzleSessionStore(drizzlePg(second), { tables: cell.tables })],
    close,
  };
}

/** Two Prisma stores (adapter-pg, a client each) in one schema made by the package's migrations. */
export async function prismaPgShared(url: string): Promise<SharedStore> {
  const PrismaClient = await prismaClientClass('postgresql');
  const namespace = `sessauth_fresh_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(url);
  await admin.connect();
  try {
    await admin.query(`create schema ${namespace}; set search_path to ${namespace}; ${migration('postgresql')}`);
  } catch (error) {
    await admin.query(`drop schema if exists ${namespace} cascade`).catch(() => undefined);
    await admin.end();
    throw error;
  }
  const clients = [0, 1].map(() => new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }, { schema: namespace }) }));
  const store = (index: number) => new PrismaSessionStore(clients[index] as SessauthPrismaClient, { provider: 'postgresql', schema: namespace });
  return {
    stores: [store(0), store(1)],
    close: async () => {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await admin.query(`drop schema ${namespace} cascade`);
      await admin.end();
    },
  };
}

/** One ORM's session and rate-limit stores on PostgreSQL, on one client, their tables made as a user of it makes them. */
export interface OrmPgStores {
  readonly store: SessionStore;
  readonly rateLimitStore: RateLimitStore;
  /** The session table as a statement names it (schema-qualified for Prisma's schema of its own). */
  readonly sessionTable: string;
  /** The session table's own name (the login lock's key). */
  readonly sessionTableName: string;
  /** The login function as a statement names it. */
  readonly loginFunction: string;
  close(): Promise<void>;
}

export interface OrmPgOptions {
  /** Make the login function (Prisma's migration 0007, Drizzle's custom migration). @default true */
  readonly loginFunction?: boolean;
  /** The store's connections' `options` (`-c name=value`), `application_name` and pool size. */
  readonly connection?: { readonly options?: string; readonly application_name?: string; readonly max?: number };
  /** The stores' `operationTimeoutMs`. @default the stores' own (5000) */
  readonly operationTimeoutMs?: number;
}

/** Prisma (adapter-pg, the package's migrations in a schema of its own) or Drizzle (node-postgres, drizzle-kit's statements and the login function). */
export async function ormPgStores(orm: 'prisma' | 'drizzle', url: string, options: OrmPgOptions = {}): Promise<OrmPgStores> {
  const withFunction = options.loginFunction ?? true;
  const suffix = randomBytes(4).toString('hex');
  if (orm === 'drizzle') {
    const names = { tableName: `sessauth_trips_${suffix}`, rateLimitTableName: `sessauth_trips_${suffix}_rl` };
    const { cell, close } = await migratedDrizzleCell('postgres', url, names, {
      connection: options.connection,
      include: (statement) => withFunction || !statement.includes('_evict_beyond_cap'),
    });
    return {
      store: new DrizzleSessionStore(cell.db, { tables: cell.tables, operationTimeoutMs: options.operationTimeoutMs }),
      rateLimitStore: new DrizzleRateLimitStore(cell.db, { tables: cell.tables }),
      sessionTable: `"${names.tableName}"`,
      sessionTableName: names.tableName,
      loginFunction: `"${names.tableName}_evict_beyond_cap"`,
      close,
    };
  }
  const PrismaClient = await prismaClientClass('postgresql');
  const namespace = `sessauth_trips_${suffix}`;
  const admin = new pg.Client(url);
  await admin.connect();
  const steps = withFunction ? migration('postgresql') : migration('postgresql', (step) => !step.endsWith('_login_function'));
  await admin.query(`create schema ${namespace}; set search_path to ${namespace}; ${steps}`);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 4, ...options.connection }, { schema: namespace }) });
  return {
    store: new PrismaSessionStore(prisma, { provider: 'postgresql', schema: namespace, operationTimeoutMs: options.operationTimeoutMs }),
    rateLimitStore: new PrismaRateLimitStore(prisma, { provider: 'postgresql', schema: namespace }),
    sessionTable: `"${namespace}"."sessauth_session"`,
    sessionTableName: 'sessauth_session',
    loginFunction: `"${namespace}"."sessauth_session_evict_beyond_cap"`,
    async close() {
      await prisma.$disconnect();
      await admin.query(`drop schema ${namespace} cascade`);
      await admin.end();
    },
  };
}

/** Drizzle's session and rate-limit stores on MySQL/MariaDB (mysql2), their tables made from drizzle-kit's statements. */
export async function drizzleMysqlStores(
  url: string,
  options: { readonly asMysql?: boolean } = {},
): Promise<{ store: SessionStore; rateLimitStore: RateLimitStore; close(): Promise<void> }> {
  const suffix = randomBytes(4).toString('hex');
  const { cell, close } = await migratedDrizzleCell('mysql', url, {
    tableName: `sessauth_trips_${suffix}`,
    rateLimitTableName: `sessauth_trips_${suffix}_rl`,
  });
  const db = options.asMysql === true ? refusingCompoundStatements(cell.db) : cell.db;
  return {
    store: new DrizzleSessionStore(db, { tables: cell.tables }),
    rateLimitStore: new DrizzleRateLimitStore(db, { tables: cell.tables }),
    close,
  };
}

/**
 * The database as MySQL answers a compound statement (`BEGIN NOT ATOMIC`): a syntax error,
 * errno 1064, before anything ran. The stores then take the transactions they take on MySQL,
 * so MariaDB can stand in for MySQL on that path.
 */
function refusingCompoundStatements(db: DrizzleDatabase): DrizzleDatabase {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'execute' || typeof value !== 'function') return value;
      return (query: SQL) => {
        const { dialect } = target as unknown as { dialect: { sqlToQuery(sql: SQL): { sql: string } } };
        if (/^\s*begin not atomic/i.test(dialect.sqlToQuery(query.getSQL()).sql)) {
          return Promise.reject(Object.assign(new Error('You have an error in your SQL syntax (as MySQL)'), { errno: 1064, code: 'ER_PARSE_ERROR' }));
        }
        return (value as (q: unknown) => unknown).call(target, query);
      };
    },
  });
}

const prismaPackage = dirname(createRequire(import.meta.url).resolve('@sessauth/prisma/package.json'));

/**
 * The generated clients of @sessauth/prisma's own tests (its model blocks, one per provider),
 * generated on first use (offline: see the package's scripts/generate-test-clients.mjs).
 */
async function prismaClientClass(
  provider: PrismaProvider,
): Promise<new (options: { adapter: unknown }) => SessauthPrismaClient & { $disconnect(): Promise<void> }> {
  execFileSync(process.execPath, [join(prismaPackage, 'scripts', 'generate-test-clients.mjs')], { stdio: 'inherit' });
  const module = (await import(join(prismaPackage, 'test', '.generated', provider, 'client', 'client.ts'))) as { PrismaClient: never };
  return module.PrismaClient;
}

/** Every migration the package ships for the provider (PostgreSQL has one more, the login function), in order, as one script. */
const migration = (folder: string, include: (step: string) => boolean = () => true) =>
  readdirSync(join(prismaPackage, 'prisma', folder, 'migrations'))
    .filter(include)
    .sort()
    .map((step) => readFileSync(join(prismaPackage, 'prisma', folder, 'migrations', step, 'migration.sql'), 'utf8'))
    .join('\n');

/** The Prisma store in a namespace of this cell's own (a schema, a database, a file), its tables made by the package's migration. */
export function prismaStore(provider: PrismaProvider, url: string): StoreFactory {
  return async () => {
    const PrismaClient = await prismaClientClass(provider);
    const namespace = `sessauth_matrix_${randomBytes(4).toString('hex')}`;
    if (provider === 'postgresql') {
      const admin = new pg.Client(url);
      await admin.connect();
      await admin.query(`create schema ${namespace}; set search_path to ${namespace}; ${migration('postgresql')}`);
      const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }, { schema: namespace }) });
      const close = async () => {
        await prisma.$disconnect();
        await admin.query(`drop schema ${namespace} cascade`);
        await admin.end();
      };
      return { store: new PrismaSessionStore(prisma, { provider, schema: namespace, activity: true, securityEventOutbox: true }), close };
    }
    if (provider === 'mysql') {
      const admin = await createConnection({ uri: url, multipleStatements: true });
      const mariadb = await isMariaDb((q) => admin.query(q));
      await admin.query(`create database ${namespace}; use ${namespace}; ${migration(mariadb ? 'mariadb' : 'mysql')}`);
      const { hostname, port, username } = new URL(url);
      const prisma = new PrismaClient({
        adapter: new PrismaMariaDb({ host: hostname, port: Number(port || 3306), user: username, database: namespace, connectionLimit: 10 }),
      });
      const close = async () => {
        await prisma.$disconnect();
        await admin.query(`drop database ${namespace}`);
        await admin.end();
      };
      return { store: new PrismaSessionStore(prisma, { provider, activity: true, securityEventOutbox: true }), close };
    }
    const dir = mkdtempSync(join(tmpdir(), 'sessauth-matrix-prisma-'));
    const file = join(dir, 'sessions.db');
    const admin = new Database(file);
    admin.pragma('journal_mode = WAL');
    admin.exec(migration('sqlite'));
    admin.close();
    const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 0 }) });
    const close = async () => {
      await prisma.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    };
    return { store: new PrismaSessionStore(prisma, { provider, activity: true, securityEventOutbox: true }), close };
  };
}
