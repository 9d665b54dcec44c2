import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { loginFunctionDdl } from '../postgres/login-function.js';
import type { TableNames } from '../schema.js';

/**
 * PostgreSQL only: the function that lets a login write its session in one round trip
 * (`postgres/login-function.ts` says why a function). No table changes. Until it runs, logins
 * take the transaction of statements, as before. MySQL/MariaDB and SQLite: nothing to do.
 */
export function createLoginFunctionMigration(dialect: SqlDialect, names: TableNames): Migration {
  const ddl = loginFunctionDdl(names);
  const onPostgres = dialect.name === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      if (onPostgres) await sql.raw(ddl.create).execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (onPostgres) await sql.raw(ddl.drop).execute(db);
    },
  };
}
