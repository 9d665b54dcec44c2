import { SessauthError, StoreUnavailableError } from '@sessauth/core';

/**
 * Runs one store operation; any failure that is not already a sessauth error
 * (connection refused, timeout, lost connection, unexpected constraint) becomes a
 * StoreUnavailableError, which the core answers with 503: fail closed. The message
 * names the operation only; the driver error stays in `cause` for debugging.
 */
export async function guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SessauthError) throw error;
    throw new StoreUnavailableError(`@sessauth/kysely: ${operation} failed`, { cause: error });
  }
}
