import { SessauthError, StoreUnavailableError } from './sessauth-error.js';

type FaultFields = Record<string, string>;

/** Driver codes whose fix is known, and the hint an operator needs. */
const HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:42P01|ER_NO_SUCH_TABLE|42S02)$/, 'a table is missing: run migrateToLatest() or `sessauth-kysely migrate`'],
  [/^(?:42703|ER_BAD_FIELD_ERROR)$/, 'a column is missing: run migrateToLatest() or `sessauth-kysely migrate`'],
  [/^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)$/, 'the store server cannot be reached: is it running, and is the URL right?'],
  [/^(?:28P01|28000|ER_ACCESS_DENIED_ERROR|ER_DBACCESS_DENIED_ERROR)$/, 'the store refused the credentials in its URL'],
  [/^(?:3D000|ER_BAD_DB_ERROR)$/, 'the database named in the URL does not exist'],
  [/^NOSCRIPT$/, 'the Redis script cache was flushed; the store reloads it on the next call'],
  [/^(?:SQLITE_READONLY|SQLITE_CANTOPEN|EACCES|EROFS)/, 'the SQLite file or its directory is not writable by this process'],
  [/^SQLITE_BUSY/, 'another process holds the SQLite write lock'],
];

const NO_SUCH_TABLE = /no such table|doesn't exist|does not exist/i;

/**
 * What an operator needs from a store fault, for the log line: the operation, the
 * driver's error code (`ECONNREFUSED`, `42P01`, `ER_NO_SUCH_TABLE`, `NOSCRIPT`...), the
 * server's host:port (never credentials: only a socket error's `address` and `port`),
 * and a hint where the fix is known. Never the driver's message, which may quote SQL
 * values; never the client's request.
 */
export function describeStoreFault(error: unknown): FaultFields {
  const fields: FaultFields = {};
  if (error instanceof StoreUnavailableError && error.operation !== undefined) fields.operation = error.operation;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 6; current = current.cause, depth++) {
    const { code, address, port } = current as Error & { code?: unknown; address?: unknown; port?: unknown };
    // A SessauthError's `code` is the contract's, not the driver's.
    const driverCode = current instanceof SessauthError ? undefined : code;
    if (fields.driver_code === undefined && typeof driverCode === 'string' && /^[A-Za-z0-9_]{2,40}$/.test(driverCode))
      fields.driver_code = driverCode;
    if (fields.endpoint === undefined && typeof address === 'string' && typeof port === 'number') fields.endpoint = `${address}:${port}`;
    if (fields.hint === undefined && depth > 0 && NO_SUCH_TABLE.test(current.message) && /table|relation/i.test(current.message)) {
      fields.hint = HINTS[0]![1];
    }
  }
  const code = fields.driver_code;
  const known = code === undefined ? undefined : HINTS.find(([pattern]) => pattern.test(code));
  if (known !== undefined) fields.hint = known[1];
  return fields;
}
