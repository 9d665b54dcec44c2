import type { MysqlPool, MysqlPoolConnection, MysqlQueryResult } from 'kysely';
import { QueryDeadlineError, queryTimeout, type PoolGuardOptions } from '../dialect/query-deadline.js';

/** The parts of a `mysql2` pool connection the guard uses (structural: `mysql2` stays an optional peer). */
export interface MysqlConnectionLike extends MysqlPoolConnection {
  /** mysql2's prepared-statement query (binary protocol), used by `mysqlDirectReads`; called as `(sql, values, callback)`. */
  execute?: (...args: never[]) => unknown;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of a `mysql2` Pool (callback API) the guard uses. */
export interface MysqlPoolLike {
  getConnection(callback: (error: unknown, connection: MysqlConnectionLike) => void): void;
  end(callback: (error: unknown) => void): void;
  on(event: 'connection', listener: (connection: MysqlConnectionLike) => void): unknown;
}

/** A pool that hands out connections with mysql2's `execute` (a `mysql2` pool, or `guardMysqlPool` of one). */
export interface MysqlExecutePool {
  getConnection(callback: (error: unknown, connection: MysqlConnectionLike) => void): void;
}

type QueryCallback = (error: unknown, result: MysqlQueryResult) => void;

/**
 * The MySQL/MariaDB counterpart of `guardPostgresPool`, for kysely's MysqlDialect:
 * an `error` listener on every connection, a client-side deadline on every
 * statement (past it the connection is destroyed and leaves the pool), and the
 * same bound on the wait for a free connection (mysql2 would queue forever).
 *
 * `new MysqlDialect({ pool: guardMysqlPool(mysql.createPool(...)) })`
 */
export function guardMysqlPool(pool: MysqlPoolLike, options: PoolGuardOptions = {}): MysqlPool & MysqlExecutePool {
  const timeoutMs = queryTimeout(options.queryTimeoutMs);
  const listening = new WeakSet<MysqlConnectionLike>();
  const listen = (connection: MysqlConnectionLike): void => {
    if (listening.has(connection)) return;
    listening.add(connection);
    connection.on('error', () => undefined);
  };
  pool.on('connection', listen);
  const wrappers = new WeakMap<MysqlConnectionLike, MysqlConnectionLike>();
  return {
    getConnection(callback) {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        callback(new QueryDeadlineError('the wait for a MySQL connection', timeoutMs), undefined as never);
      }, timeoutMs);
      timer.unref();
      pool.getConnection((error, connection) => {
        if (settled) {
          // The caller gave up: hand a late connection straight back.
          if (error === null || error === undefined) connection.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error !== null && error !== undefined) {
          callback(error, connection);
          return;
        }
        listen(connection);
        let wrapper = wrappers.get(connection);
        if (wrapper === undefined) {
          wrapper = boundConnection(connection, timeoutMs);
          wrappers.set(connection, wrapper);
        }
        callback(null, wrapper);
      });
    },
    end: (callback) => pool.end(callback),
  };
}

function boundConnection(connection: MysqlConnectionLike, timeoutMs: number): MysqlConnectionLike {
  // `query` and `execute` alike: past the deadline the connection leaves the pool and
  // closes its socket; the late answer, if any, is ignored.
  const bounded =
    (run: (sql: string, parameters: unknown[], callback: QueryCallback) => unknown) =>
    (sql: string, parameters: unknown[], callback: QueryCallback): undefined => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        connection.destroy();
        callback(new QueryDeadlineError('a MySQL statement', timeoutMs), [] as never);
      }, timeoutMs);
      timer.unref();
      run.call(connection, sql, parameters, (error, result) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        callback(error, result);
      });
      return undefined;
    };
  const boundQuery = bounded(connection.query as (sql: string, parameters: unknown[], callback: QueryCallback) => unknown);
  function query(sql: string, parameters: unknown[], callback?: QueryCallback): unknown {
    // Without a callback the caller streams the result: not bounded here.
    if (callback === undefined) return connection.query(sql, parameters);
    return boundQuery(sql, parameters, callback);
  }
  const execute =
    connection.execute === undefined
      ? undefined
      : bounded(connection.execute as (sql: string, parameters: unknown[], callback: QueryCallback) => unknown);
  return {
    query,
    ...(execute === undefined ? {} : { execute }),
    release: () => connection.release(),
    destroy: () => connection.destroy(),
    on: (event, listener) => connection.on(event, listener),
  } as MysqlConnectionLike;
}
