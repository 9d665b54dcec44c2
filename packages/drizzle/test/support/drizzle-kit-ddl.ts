import {
  generateDrizzleJson,
  generateMigration,
  generateMySQLDrizzleJson,
  generateMySQLMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from 'drizzle-kit/api';

export type Dialect = 'postgres' | 'mysql' | 'sqlite';

/**
 * The statements drizzle-kit writes into a user's first migration for these tables: what a
 * drizzle user applies, so the tests run on exactly that (not on SQL of our own).
 */
export async function drizzleKitDdl(dialect: Dialect, tables: Record<string, unknown>): Promise<string[]> {
  if (dialect === 'postgres') return generateMigration(generateDrizzleJson({}), generateDrizzleJson(tables));
  if (dialect === 'mysql') return generateMySQLMigration(await generateMySQLDrizzleJson({}), await generateMySQLDrizzleJson(tables));
  return generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson(tables));
}
