import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type Dialect } from 'kysely';
import { withNamedStatements } from './postgres/postgres-named-statements.js';
import type { DialectName } from './dialect/sql-dialect.js';
import type { DirectReads } from './dialect/direct-reads.js';
import { mysqlDirectReads } from './mysql/mysql-direct-reads.js';
import { withStatementCache } from './sqlite/sqlite-statement-cache.js';
import { guardMysqlPool } from './mysql/mysql-pool-guard.js';
import { guardPostgresPool } from './postgres/postgres-pool-guard.js';
import { parsePostgresHosts } from './postgres/postgres-hosts.js';
import { readWritePool } from './postgres/postgres-read-write-pool.js';
import { operationTimeout } from './store-guard.js';

export interface OpenFromUrlOptions {
  /** Connections in the pool (PostgreSQL, MySQL). @default 10 */
  poolSize?: number;
  /** Give up connecting (or waiting for a free pooled connection) after this long. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * Client-side deadline of every statement (PostgreSQL, MySQL): a connection whose
   * statement has no answer by then is destroyed and leaves the pool, so a silent
   * database (a partition, dropped packets) cannot hold requests or connections.
   * Pass the same value to `createKyselyStore` and `KyselyRateLimitStore`
   * (`operationTimeoutMs`, whose default is the same), which bound a whole call.
   * @default 5000
   */
  operationTimeoutMs?: number;
  /**
   * Bound on one statement, lock waits included (PostgreSQL `statement_timeout`,
   * MySQL/MariaDB `innodb_lock_wait_timeout` in whole seconds); 0 leaves the
   * server's default. @default 5000
   */
  statementTimeoutMs?: number;
  /**
   * Prepare the store's hot statements once (`withNamedStatements` on PostgreSQL,
   * `withStatementCache` on SQLite, `mysqlDirectReads` for the guard's read on MySQL). Turn off behind a PgBouncer in transaction mode
   * older than 1.21. @default true
   */
  preparedStatements?: boolean;
}

export interface OpenedDatabase {
  readonly db: Kysely<unknown>;
  readonly dialect: DialectName;
  /** With prepared statements (every engine): pass to `createKyselyStore` as `directReads`. */
  readonly directReads: DirectReads | undefined;
  /** The `operationTimeoutMs` in force: pass it on to the stores. */
  readonly operationTimeoutMs: number;
  /** Closes the pool (or the SQLite file). */
  destroy(): Promise<void>;
}

/**
 * A Kysely instance from a URL; the scheme picks the driver, which is loaded only
 * then (the drivers are optional peer dependencies):
 * `postgres://` / `postgresql://` (pg), `mysql://` / `mariadb://` (mysql2),
 * `sqlite:<path>` (better-sqlite3; `sqlite::memory:` for an in-memory database).
 * The store's hot statements are prepared once (see `preparedStatements`).
 *
 * PostgreSQL failover: libpq's multi-host URL,
 * `postgres://user@primary:5432,standby:5432/db?target_session_attrs=read-write`,
 * connects only to the host that takes writes (checked on every new connection),
 * trying the others when it fails, so the store follows a promoted standby without a
 * restart (docs/failover-postgresql.md). A one-host URL with
 * `target_session_attrs=read-write` gets the same check.
 *
 * Fault behaviour: the pools are guarded (`guardPostgresPool`, `guardMysqlPool`): a
 * connection lost mid-statement fails that statement instead of crashing the
 * process, and a statement without an answer within `operationTimeoutMs` ends its
 * connection. SQLite never blocks the event loop on a lock held by another
 * process (busy timeout 0): the stores retry SQLITE_BUSY asynchronously instead.
 */
export async function openKyselyFromUrl(url: string, options: OpenFromUrlOptions = {}): Promise<OpenedDatabase> {
  const poolSize = options.poolSize ?? 10;
  const timeout = options.connectTimeoutMs ?? 5000;
  const statementTimeout = options.statementTimeoutMs ?? 5000;
  const prepared = options.preparedStatements ?? true;
  const deadline = operationTimeout(options.operationTimeoutMs);
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  let dialect: Dialect;
  let name: DialectName;
  let directReads: DirectReads | undefined;
  if (scheme === 'postgres' || scheme === 'postgresql') {
    const pg = await loadDriver('pg', () => import('pg'));
    const Pool = pg.Pool ?? pg.default.Pool;
    const hostPool = (connectionString: string) => {
      const pool = new Pool({
        connectionString,
        max: poolSize,
        connectionTimeoutMillis: timeout,
        ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
      });
      // An idle client's error (server restart) would otherwise crash the process;
      // the next query fails instead and the store answers 503.
      pool.on('error', () => undefined);
      return pool;
    };
    // libpq's multi-host form (`host1:5432,host2:5432` and `target_session_attrs`),
    // which pg lacks: one pool per host, connections only to a writable one.
    const hosts = parsePostgresHosts(url);
    const pool =
      hosts === null
        ? hostPool(url)
        : readWritePool(
            hosts.urls.map((hostUrl, i) => ({ hostPort: hosts.hostPorts[i] ?? '', pool: hostPool(hostUrl) })),
            { targetSessionAttrs: hosts.targetSessionAttrs, checkTimeoutMs: deadline },
          );
    const guarded = guardPostgresPool(pool, { queryTimeoutMs: deadline });
    const named = prepared ? withNamedStatements(guarded) : undefined;
    directReads = named;
    dialect = new PostgresDialect({ pool: named ?? guarded });
    name = 'postgres';
  } else if (scheme === 'mysql' || scheme === 'mariadb') {
    const mysql = await loadDriver('mysql2', () => import('mysql2'));
    const createPool = mysql.createPool ?? mysql.default.createPool;
    const pool = createPool({
      uri: url.replace(/^mariadb:/i, 'mysql:'),
      connectionLimit: poolSize,
      connectTimeout: timeout,
      // utf8mb4 on the wire too, or 4-byte characters (emoji) do not round-trip.
      charset: 'utf8mb4',
    });
    const lockWait = Math.ceil(statementTimeout / 1000);
    const guarded = guardMysqlPool(pool, { queryTimeoutMs: deadline });
    directReads = prepared ? mysqlDirectReads(guarded) : undefined;
    dialect = new MysqlDialect({
      pool: guarded,
      onCreateConnection: async (connection) => {
        if (lockWait > 0) {
          await connection.executeQuery(CompiledQuery.raw(`set session innodb_lock_wait_timeout = ${lockWait}`));
        }
      },
    });
    name = 'mysql';
  } else if (scheme === 'sqlite') {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/|\.)/, '');
    if (path === '') throw new TypeError('@sessauth/kysely: sqlite URL needs a path, e.g. sqlite:./sessauth.db');
    const sqlite = await loadDriver('better-sqlite3', () => import('better-sqlite3'));
    const Database = sqlite.default;
    // Opening may wait for another process's lock (switching to WAL needs one).
    const database = new Database(path, { timeout });
    // WAL lets readers run beside the writer.
    if (path !== ':memory:') database.pragma('journal_mode = WAL');
    // Then no busy wait in the driver: it would block the event loop (every
    // request of the process) while another process holds the write lock. The
    // stores retry SQLITE_BUSY asynchronously within their deadline, and
    // migrateToLatest waits in the driver for the migration only.
    database.pragma('busy_timeout = 0');
    const cached = prepared ? withStatementCache(database) : undefined;
    directReads = cached;
    dialect = new SqliteDialect({ database: cached ?? database });
    name = 'sqlite';
  } else {
    throw new TypeError('@sessauth/kysely: unsupported database URL; use postgres://, mysql://, mariadb:// or sqlite:<path>');
  }
  const db = new Kysely<unknown>({ dialect });
  return { db, dialect: name, directReads, operationTimeoutMs: deadline, destroy: () => db.destroy() };
}

async function loadDriver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(`@sessauth/kysely: this URL needs the "${name}" package; install it (npm install ${name})`, {
      cause: error,
    });
  }
}
