import { MysqlAdapter, PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';
import { mysqlDialect } from '../mysql/mysql-dialect.js';
import { postgresDialect } from '../postgres/postgres-dialect.js';
import type { DialectName, SqlDialect } from './sql-dialect.js';
import { sqliteDialect } from '../sqlite/sqlite-dialect.js';

const DIALECTS: Readonly<Record<DialectName, SqlDialect>> = {
  postgres: postgresDialect,
  mysql: mysqlDialect,
  sqlite: sqliteDialect,
};

/**
 * The explicit `dialect` option wins; otherwise the Kysely instance's adapter
 * tells (kysely's own adapters and subclasses of them, e.g. PGlite's).
 */
export function resolveDialect<DB>(db: Kysely<DB>, explicit?: DialectName): SqlDialect {
  if (explicit !== undefined) {
    const dialect = DIALECTS[explicit];
    if (dialect === undefined) throw new TypeError(`@sessauth/kysely: unknown dialect ${JSON.stringify(explicit)}`);
    return dialect;
  }
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return postgresDialect;
  if (adapter instanceof MysqlAdapter) return mysqlDialect;
  if (adapter instanceof SqliteAdapter) return sqliteDialect;
  throw new TypeError("@sessauth/kysely: cannot tell this Kysely instance's SQL dialect; pass { dialect: 'postgres' | 'mysql' | 'sqlite' }");
}
