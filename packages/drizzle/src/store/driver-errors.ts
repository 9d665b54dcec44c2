/**
 * drizzle (0.44+) wraps a driver's error in a DrizzleQueryError whose `cause` is the driver's
 * own; older releases throw the driver's error as is. Both are read through the cause chain.
 */
function driverErrors(error: unknown): Array<{ code?: unknown; message?: unknown }> {
  const chain: Array<{ code?: unknown; message?: unknown }> = [];
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    chain.push(current as { code?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * A conflict that changed nothing and may simply be run again: SQLITE_BUSY (another process
 * holds the write lock), an InnoDB deadlock victim (rolled back whole), PostgreSQL's
 * deadlock_detected and serialization_failure.
 */
export function isTransientConflict(error: unknown): boolean {
  return driverErrors(error).some(({ code }) => {
    if (typeof code !== 'string') return false;
    return code.startsWith('SQLITE_BUSY') || code === 'ER_LOCK_DEADLOCK' || code === '40P01' || code === '40001';
  });
}

/**
 * The driver's "no such table" / "no such column": PostgreSQL 42P01 / 42703, MySQL and
 * MariaDB ER_NO_SUCH_TABLE / ER_BAD_FIELD_ERROR, SQLite SQLITE_ERROR with its message.
 */
export function isMissing(what: 'table' | 'column', error: unknown): boolean {
  return driverErrors(error).some(({ code, message }) => {
    if (what === 'table' && (code === '42P01' || code === 'ER_NO_SUCH_TABLE')) return true;
    if (what === 'column' && (code === '42703' || code === 'ER_BAD_FIELD_ERROR')) return true;
    return code === 'SQLITE_ERROR' && typeof message === 'string' && message.startsWith(`no such ${what}:`);
  });
}

/** The database's own error (PostgreSQL's SQLSTATE and the routine that raised it) of the first error in the chain with a code. */
export function driverError(error: unknown): { code?: unknown; routine?: unknown } | undefined {
  return driverErrors(error).find(({ code }) => typeof code === 'string');
}
