import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { createPool } from 'mysql2';
import pg from 'pg';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { KyselySessionStore, migrateToLatest, withNamedStatements, withStatementCache, type DialectName } from '../src/index.js';
import { seedSessions } from '../test/support/seed-sessions.js';

/** Values of one rotation, as the store and the raw statement both take them. */
export interface RotateArgs {
  id: string;
  userId: string;
  presentedJti: string;
  nextJti: string;
  stamp: string;
  now: number;
}

/** One database, the store over it, and the same two queries through the raw driver. */
export interface BenchTarget {
  readonly name: string;
  readonly dialect: DialectName;
  /** The store with the optional driver helper (withNamedStatements / withStatementCache). */
  readonly store: KyselySessionStore;
  /** The store over a plain Kysely instance. */
  readonly storePlain: KyselySessionStore;
  /** Kysely's query builder, built and compiled per call (what the store avoids). */
  builderGet(id: string): Promise<unknown>;
  rawGet(id: string): Promise<unknown>;
  /** True when the swap happened. */
  rawRotate(args: RotateArgs): Promise<boolean>;
  close(): Promise<void>;
}

const ROTATE_WHERE = `id = :id and user_id = :userId and expired_at is null and expires_at > :now
  and security_stamp = :stamp and refresh_jti = :presentedJti`;

/** The rotate UPDATE in a driver's placeholder style. */
function rotateSql(table: string, style: 'pg' | 'named' | 'positional', returning: boolean): { text: string; order: (keyof RotateArgs)[] } {
  const order: (keyof RotateArgs)[] = [];
  const text = `update ${table} set refresh_jti = :nextJti, last_activity_at = :now where ${ROTATE_WHERE}${returning ? ' returning *' : ''}`.replace(
    /:(\w+)/g,
    (_, name: keyof RotateArgs) => {
      if (style === 'named') return `@${name}`;
      if (style === 'positional') return (order.push(name), '?');
      const at = order.indexOf(name);
      return `$${at >= 0 ? at + 1 : order.push(name)}`;
    },
  );
  return { text, order };
}

async function prepareTables(db: Kysely<unknown>, dialect: DialectName): Promise<{ table: string; drop(): Promise<void> }> {
  const suffix = randomBytes(4).toString('hex');
  const table = `sessauth_bench_${suffix}`;
  const rateLimitTableName = `sessauth_bench_rl_${suffix}`;
  await migrateToLatest(db, { tableName: table, rateLimitTableName });
  await seedSessions(db, dialect, table, Date.now());
  return {
    table,
    async drop() {
      for (const t of [table, `${table}_user_lock`, `${table}_migration`, `${table}_migration_lock`, `${table}_security_event`, rateLimitTableName]) {
        await sql`drop table if exists ${sql.table(t)}`.execute(db);
      }
    },
  };
}

const builder = (db: Kysely<unknown>, table: string) => (id: string) =>
  (db as unknown as Kysely<Record<string, { id: string }>>).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();

export async function openPostgres(poolSize: number): Promise<BenchTarget> {
  const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: poolSize });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const { table, drop } = await prepareTables(db, 'postgres');
  const rotate = rotateSql(table, 'pg', true);
  const tuned = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  return {
    name: 'PostgreSQL (pg)',
    dialect: 'postgres',
    store: new KyselySessionStore(tuned, { tableName: table }),
    storePlain: new KyselySessionStore(db, { tableName: table }),
    builderGet: builder(db, table),
    rawGet: (id) => pool.query({ name: 'get-by-id', text: `select * from ${table} where id = $1`, values: [id] }),
    rawRotate: async (args) => (await pool.query({ name: 'rotate', text: rotate.text, values: rotate.order.map((k) => args[k]) })).rowCount === 1,
    close: async () => {
      await drop();
      await db.destroy();
    },
  };
}

export async function openMysql(poolSize: number): Promise<BenchTarget> {
  const pool = createPool({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test', connectionLimit: poolSize, charset: 'utf8mb4' });
  const db = new Kysely<unknown>({ dialect: new MysqlDialect({ pool }) });
  const { table, drop } = await prepareTables(db, 'mysql');
  const promisePool = pool.promise();
  const rotate = rotateSql(table, 'positional', false);
  const get = `select * from ${table} where id = ?`;
  return {
    name: 'MariaDB (mysql2)',
    dialect: 'mysql',
    // No helper for MySQL: kysely's text-protocol query is already on par with `execute`.
    store: new KyselySessionStore(db, { tableName: table }),
    storePlain: new KyselySessionStore(db, { tableName: table }),
    builderGet: builder(db, table),
    rawGet: (id) => promisePool.execute(get, [id]),
    // No UPDATE ... RETURNING on MySQL/MariaDB: the row is read back, as the store does.
    rawRotate: async (args) => {
      const [result] = await promisePool.execute(
        rotate.text,
        rotate.order.map((k) => args[k]),
      );
      if ((result as { affectedRows: number }).affectedRows !== 1) return false;
      await promisePool.execute(get, [args.id]);
      return true;
    },
    close: async () => {
      await drop();
      await db.destroy();
    },
  };
}

export async function openSqlite(file: string): Promise<BenchTarget> {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
  const { table, drop } = await prepareTables(db, 'sqlite');
  const get = database.prepare(`select * from ${table} where id = ?`);
  const rotate = database.prepare(rotateSql(table, 'named', true).text);
  // Same file, same connection object; only the statement cache differs.
  const cached = withStatementCache(database);
  const tuned = new Kysely<unknown>({ dialect: new SqliteDialect({ database: cached }) });
  return {
    name: 'SQLite (better-sqlite3)',
    dialect: 'sqlite',
    store: new KyselySessionStore(tuned, { tableName: table, directReads: cached }),
    storePlain: new KyselySessionStore(db, { tableName: table }),
    builderGet: builder(db, table),
    // Synchronous driver: wrapped in a promise so the loop awaits alike.
    rawGet: (id) => Promise.resolve(get.get(id)),
    rawRotate: (args) => Promise.resolve(rotate.get(args) !== undefined),
    close: async () => {
      await drop();
      await db.destroy();
    },
  };
}
