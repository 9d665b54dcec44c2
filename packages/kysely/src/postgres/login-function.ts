import { postgresLoginFunctionDdl, postgresLoginLockKey, postgresLoginStatement } from '@sessauth/core/store';
import { CompiledQuery } from 'kysely';
import type { TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

/**
 * Login's write on PostgreSQL as one round trip: the function `<table>_evict_beyond_cap` and the
 * statement that calls it are the core's (`postgresLoginStatement` says why a function), shared
 * with the ORM stores so a database moves between them. Migration 0009-login-function creates it.
 */

/** The function `migration 0009-login-function` creates, and how to drop it. */
export function loginFunctionDdl(names: TableNames): { create: string; drop: string } {
  return postgresLoginFunctionDdl(names.session);
}

/** The advisory lock key of a user's logins (also `postgresDialect.lockUser`'s). */
export function loginLockKey(names: TableNames, userId: string): string {
  return postgresLoginLockKey(names.session, userId);
}

/** The login statement; answers the newcomer's `expired_at`. It waits for the user's lock at most `lockWaitMs`. */
export function oneTripCreatePostgres(names: TableNames, row: SessionInsert, maxActiveSessions: number, lockWaitMs: number): CompiledQuery {
  const { text, parameters } = postgresLoginStatement({ table: names.session }, row, maxActiveSessions, { lockWaitMs });
  return CompiledQuery.raw(text, parameters);
}
