import type { MysqlExecutePool } from './mysql-pool-guard.js';
import { isHotStatement } from '../prepared-query.js';
import type { DirectReads } from '../dialect/direct-reads.js';

/**
 * Optional MySQL/MariaDB tuning: the store's hot read (the guard's `findSession`) as a
 * server-side prepared statement (mysql2's `execute`, prepared once per connection and
 * cached by mysql2), on a pooled connection, below kysely, whose MySQL driver sends
 * every query as text to be parsed and planned anew. Only the store's own prepared
 * statements go this way. Pass the same (guarded) pool the dialect uses.
 *
 * `const pool = guardMysqlPool(mysql.createPool(...))`, `new MysqlDialect({ pool })`,
 * `createKyselyStore(db, { directReads: mysqlDirectReads(pool) })`
 */
export function mysqlDirectReads(pool: MysqlExecutePool): DirectReads {
  return {
    readHot: (sqlText, parameters) => (isHotStatement(sqlText) ? execute(pool, sqlText, [...parameters]) : null),
  };
}

function execute(pool: MysqlExecutePool, sqlText: string, parameters: unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    pool.getConnection((error, connection) => {
      if (error !== null && error !== undefined) {
        reject(error);
        return;
      }
      if (connection.execute === undefined) {
        connection.release();
        reject(new TypeError('@sessauth/kysely: mysqlDirectReads needs a mysql2 pool (its connections have execute)'));
        return;
      }
      const run = connection.execute as (sql: string, values: unknown[], callback: (failure: unknown, rows: unknown) => void) => unknown;
      run.call(connection, sqlText, parameters, (failure, rows) => {
        connection.release();
        if (failure !== null && failure !== undefined) reject(failure);
        else resolve(rows as unknown[]);
      });
    });
  });
}
