import { Migrator, sql, type Kysely, type MigrationResult } from 'kysely';
import type { DialectName } from './dialect/sql-dialect.js';
import { resolveDialect } from './dialect/resolve-dialect.js';
import { sessauthMigrations } from './migrations/all-migrations.js';
import { tableNames } from './schema.js';

export interface MigrateOptions {
  /** The session table. @default 'sessauth_session' */
  tableName?: string;
  /** The rate-limit counters table. @default 'sessauth_rate_limit' */
  rateLimitTableName?: string;
  /** Detected from the Kysely instance when omitted. */
  dialect?: DialectName;
}

export interface MigrateSummary {
  /** Names of the migrations applied by this call (empty when already up to date). */
  readonly applied: string[];
}

/**
 * Brings the sessauth tables to the latest schema with Kysely's Migrator. Safe to
 * call at every start-up and from several processes at once (the Migrator locks).
 * Bookkeeping lives in `<tableName>_migration`, apart from the host app's own
 * `kysely_migration`, so the two migration sets never see each other.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, options: MigrateOptions = {}): Promise<MigrateSummary> {
  const dialect = resolveDialect(db, options.dialect);
  const names = tableNames(options.tableName, options.rateLimitTableName);
  const migrations = sessauthMigrations(dialect, names);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: names.migration,
    migrationLockTableName: names.migrationLock,
  });
  let { error, results } =
    dialect.name === 'sqlite' ? await withSqliteBusyWait(db, () => migrator.migrateToLatest()) : await migrator.migrateToLatest();
  // Kysely's PostgreSQL introspector lists every table of the database before it migrates, and
  // that listing fails if another process drops some unrelated table meanwhile. Nothing has run
  // then (no results), so another try is safe.
  for (let retry = 0; retry < 3 && results === undefined && isUndefinedTable(error); retry += 1) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    const failed = results?.find((result: MigrationResult) => result.status === 'Error');
    const where = failed === undefined ? '' : ` (migration ${failed.migrationName})`;
    throw new Error(`@sessauth/kysely: migration failed${where}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** PostgreSQL's undefined_table. */
function isUndefinedTable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42P01';
}

/**
 * SQLite migrations are not transactional in Kysely, so a statement that met
 * another process's write lock cannot simply be retried: wait for the lock in the
 * driver instead, for up to 5 s, during the migration only (`openKyselyFromUrl`
 * sets no busy wait, which would block the event loop while serving).
 */
async function withSqliteBusyWait<DB, T>(db: Kysely<DB>, run: () => Promise<T>): Promise<T> {
  const before = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  const previous = Number(before.rows[0]?.timeout ?? 0);
  await sql`pragma busy_timeout = ${sql.raw(String(Math.max(previous, 5000)))}`.execute(db);
  try {
    return await run();
  } finally {
    await sql`pragma busy_timeout = ${sql.raw(String(previous))}`.execute(db);
  }
}
