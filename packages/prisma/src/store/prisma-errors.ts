/**
 * What a driver adapter reported under Prisma's error: PrismaClientKnownRequestError carries the
 * adapter's DriverAdapterError in `meta.driverAdapterError`, whose `cause` says the `kind`
 * (`TableDoesNotExist`, `TransactionWriteConflict`, ...) and the driver's `originalCode`.
 */
function adapterCause(error: unknown): { kind?: unknown; originalCode?: unknown } | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: unknown } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause ?? (error as { cause?: { kind?: unknown } } | null)?.cause;
  return typeof cause === 'object' && cause !== null ? (cause as { kind?: unknown; originalCode?: unknown }) : undefined;
}

const code = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/**
 * A conflict that changed nothing and may simply be run again: a deadlock victim or a
 * serialization failure (Prisma P2034, the adapters' TransactionWriteConflict), SQLITE_BUSY
 * (another process holds the write lock).
 */
export function isTransientConflict(error: unknown): boolean {
  if (code(error) === 'P2034') return true;
  const cause = adapterCause(error);
  if (cause?.kind === 'TransactionWriteConflict') return true;
  return typeof cause?.originalCode === 'string' && cause.originalCode.startsWith('SQLITE_BUSY');
}

/** "No such table" / "no such column", from a model query (P2021 / P2022) or a raw one. */
export function isMissing(what: 'table' | 'column', error: unknown): boolean {
  if (code(error) === (what === 'table' ? 'P2021' : 'P2022')) return true;
  return adapterCause(error)?.kind === (what === 'table' ? 'TableDoesNotExist' : 'ColumnNotFound');
}

/** The database's own error code (PostgreSQL's SQLSTATE) under Prisma's error, where a driver adapter gave one. */
export function originalCode(error: unknown): unknown {
  return adapterCause(error)?.originalCode;
}
