import {
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { DialectName } from './dialect/sql-dialect.js';
import { resolveDialect } from './dialect/resolve-dialect.js';
import { sessauthMigrations } from './migrations/all-migrations.js';
import { tableNames } from './schema.js';

export interface MigrationDdlOptions {
  /** The session table. @default 'sessauth_session' */
  tableName?: string;
  /** The rate-limit counters table. @default 'sessauth_rate_limit' */
  rateLimitTableName?: string;
  /**
   * MySQL/MariaDB: the binary collation of the tables (`migrateToLatest` asks the server for
   * the best one; an export cannot). @default 'utf8mb4_0900_bin' (MySQL 8+); MariaDB: 'utf8mb4_nopad_bin'
   */
  mysqlCollation?: string;
}

export const DEFAULT_MYSQL_COLLATION = 'utf8mb4_0900_bin';
const COLLATION = /^utf8mb4_[a-z0-9_]+$/;

/**
 * The SQL of every sessauth migration for `dialect`, for teams whose migrations live in
 * Prisma, Drizzle or Knex. The very migrations `migrateToLatest` runs are run here against a
 * driver that records each statement instead of executing it: no connection, no drift.
 */
export async function migrationDdl(dialect: DialectName, options: MigrationDdlOptions = {}): Promise<string> {
  const collation = options.mysqlCollation ?? DEFAULT_MYSQL_COLLATION;
  if (!COLLATION.test(collation)) throw new TypeError(`@sessauth/kysely: not a utf8mb4 collation name: ${JSON.stringify(collation)}`);
  const names = tableNames(options.tableName, options.rateLimitTableName);
  const statements: string[] = [];
  const db = new Kysely<unknown>({ dialect: recordingDialect(dialect, statements, collation) });
  const sqlDialect = resolveDialect(db, dialect);
  const migrations = sessauthMigrations(sqlDialect, names);
  const out = [
    `-- sessauth schema for ${dialect}: migrations ${Object.keys(migrations).join(', ')}.`,
    '-- Apply it with your own migration tool; do not also run migrateToLatest() on these tables.',
  ];
  if (dialect === 'mysql') out.push(`-- Collation ${collation}: use utf8mb4_nopad_bin on MariaDB (--collation).`);
  for (const [name, migration] of Object.entries(migrations)) {
    statements.length = 0;
    await migration.up(db);
    out.push('', `-- ${name}`, ...statements.map((statement) => `${statement};`));
  }
  await db.destroy();
  return `${out.join('\n')}\n`;
}

function recordingDialect(name: DialectName, statements: string[], collation: string): Dialect {
  const parts = {
    postgres: [PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler],
    mysql: [MysqlAdapter, MysqlIntrospector, MysqlQueryCompiler],
    sqlite: [SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler],
  } as const;
  const entry = parts[name];
  if (entry === undefined) throw new TypeError(`@sessauth/kysely: unknown dialect ${JSON.stringify(name)} (postgres, mysql or sqlite)`);
  const [Adapter, Introspector, Compiler] = entry;
  return {
    createAdapter: () => new Adapter(),
    createDriver: () => recordingDriver(statements, collation),
    createIntrospector: (db) => new Introspector(db),
    createQueryCompiler: () => new Compiler(),
  };
}

/** A driver that keeps each schema statement's SQL and answers MySQL's collation query itself. */
function recordingDriver(statements: string[], collation: string): Driver {
  const connection: DatabaseConnection = {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      // The MySQL migration asks which binary collations exist; the export answers with one.
      if (/^show collation/i.test(query.sql)) return Promise.resolve({ rows: [{ Collation: collation } as R] });
      if (query.parameters.length > 0) throw new Error(`@sessauth/kysely: a migration statement has parameters: ${query.sql}`);
      statements.push(query.sql);
      return Promise.resolve({ rows: [] });
    },
    streamQuery: () => {
      throw new Error('@sessauth/kysely: the DDL export does not stream');
    },
  };
  const done = (): Promise<void> => Promise.resolve();
  return {
    init: done,
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: done,
    commitTransaction: done,
    rollbackTransaction: done,
    releaseConnection: done,
    destroy: done,
  };
}
