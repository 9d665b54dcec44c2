import { StoreUnavailableError } from './sessauth-error.js';

/** One thing a store found missing in its schema. */
export interface StoreSchemaProblem {
  /** The table, as the store names it (after any `tableName` option). */
  readonly table: string;
  /** The columns missing from a table that exists; empty when the whole table is missing. */
  readonly missingColumns: readonly string[];
  /** The migration that creates the table or adds the columns, e.g. `0002-create-rate-limit`. */
  readonly migration: string;
}

/**
 * A store's `verify()` found its tables or columns missing: the database is behind
 * this version's migrations. `createSessauth` rejects with it at start-up rather
 * than answer 503 at the first login. It is a `StoreUnavailableError` (wire code
 * `service_unavailable`), so anywhere else it fails closed like any store fault.
 * The message names each table, column and migration, then `fix`.
 */
export class StoreSchemaError extends StoreUnavailableError {
  override readonly name: string = 'StoreSchemaError';
  /** What is missing, earliest migration first. Never empty. */
  readonly problems: readonly StoreSchemaProblem[];
  /** How to bring the schema up to date, e.g. "run migrateToLatest() or `npx sessauth-kysely migrate`". */
  readonly fix: string;

  constructor(problems: readonly StoreSchemaProblem[], fix: string, options: { operation?: string } = {}) {
    if (problems.length === 0) throw new TypeError('StoreSchemaError needs at least one problem');
    super(`store schema is not up to date: ${problems.map(describeProblem).join('; ')}. Fix: ${fix}`, {
      operation: options.operation ?? 'verify',
    });
    this.problems = problems;
    this.fix = fix;
  }
}

function describeProblem(problem: StoreSchemaProblem): string {
  const what =
    problem.missingColumns.length === 0
      ? `table "${problem.table}" is missing`
      : `table "${problem.table}" lacks column${problem.missingColumns.length === 1 ? '' : 's'} ${problem.missingColumns.join(', ')}`;
  return `${what} (migration ${problem.migration})`;
}
