import { CompiledQuery } from 'kysely';
import type { TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

/**
 * Login's write on PostgreSQL as one round trip. PostgreSQL runs one statement on one snapshot, so
 * a statement cannot take the user's lock and then read the sessions committed while it waited;
 * a VOLATILE PL/pgSQL function can (each statement in it reads with a fresh snapshot under READ
 * COMMITTED). Migration 0009-login-function creates `<table>_evict_beyond_cap`: it takes the
 * user's advisory lock (the very key the transaction of statements takes, so both forms serialise
 * against each other while a fleet is half upgraded), revokes the oldest active sessions beyond
 * the cap counting the newcomer (newest `cap` kept, by `created_at` then id), and answers whether
 * the newcomer itself is among them. The login's one statement calls it and then inserts the row;
 * the lock is held until that statement's implicit COMMIT, so concurrent logins of one user never
 * leave more than the cap active. Only these five columns are named in the function, so later
 * columns need no new version of it: the insert stays the store's.
 *
 * Under REPEATABLE READ or SERIALIZABLE (a database's `default_transaction_isolation`) the
 * function's statements would read the snapshot taken before the lock was granted, so it refuses
 * with SQLSTATE SA001 and the store takes its transaction, which asks for READ COMMITTED. The
 * call casts every argument, so no overload of another schema on the search path can be chosen
 * in its place; the built-ins are named with `pg_catalog`.
 */
export const NEEDS_READ_COMMITTED = 'SA001';

/** The function `migration 0009-login-function` creates, and how to drop it. */
export function loginFunctionDdl(names: TableNames): { create: string; drop: string } {
  const table = identifier(names.session);
  const fn = identifier(names.loginFunction);
  const create = `create or replace function ${fn}(p_lock_key text, p_user_id text, p_newcomer_id text, p_now bigint, p_cap integer)
returns boolean language plpgsql volatile as $sessauth$
declare
  v_newcomer_evicted boolean;
begin
  if pg_catalog.current_setting('transaction_isolation') <> 'read committed' then
    raise exception 'sessauth: % needs READ COMMITTED', ${literal(names.loginFunction)} using errcode = '${NEEDS_READ_COMMITTED}';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_lock_key, 0));
  with evicted as (
    select id from (
      select id, row_number() over (order by created_at desc, id collate "C" desc) as place
      from (
        select id, created_at from ${table} where user_id = p_user_id and expired_at is null and expires_at > p_now
        union all select p_newcomer_id, p_now
      ) active
    ) ranked where place > greatest(p_cap, 0)
  ), revoked as (
    update ${table} set expired_at = p_now
    where id in (select id from evicted) and id <> p_newcomer_id and expired_at is null
  )
  select exists (select 1 from evicted where id = p_newcomer_id) into v_newcomer_evicted;
  return v_newcomer_evicted;
end
$sessauth$`;
  // One line: the exported DDL (`sessauth-kysely sql`) keeps one statement per line.
  return { create: create.replace(/\s+/g, ' '), drop: `drop function if exists ${fn}(text, text, text, bigint, integer)` };
}

/** The advisory lock key of a user's logins (also `postgresDialect.lockUser`'s). */
export function loginLockKey(names: TableNames, userId: string): string {
  return `${names.session}:${userId}`;
}

/**
 * The login statement: the function, then the insert, whose `expired_at` is the login's time when
 * the newcomer was itself evicted (logins arriving out of order). Answers the newcomer's
 * `expired_at`. Without the function (migration 0009 not run) PostgreSQL refuses it as an
 * undefined function and the store keeps its transaction of statements.
 */
export function oneTripCreatePostgres(names: TableNames, row: SessionInsert, maxActiveSessions: number): CompiledQuery {
  const parameters: unknown[] = [];
  const slot = (value: unknown): string => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  // A cap that is not a finite number means no cap, as in the transaction's arithmetic.
  const cap = Number.isFinite(maxActiveSessions) ? Math.min(Math.max(0, Math.trunc(maxActiveSessions)), INT_MAX) : INT_MAX;
  const call = `${identifier(names.loginFunction)}(${slot(loginLockKey(names, row.user_id))}::text, ${slot(row.user_id)}::text, ${slot(row.id)}::text, ${slot(row.created_at)}::bigint, ${slot(cap)}::integer)`;
  // `expired_at` always comes last and always reads the CTE: PostgreSQL skips a CTE nothing reads,
  // and with it the lock.
  const columns = [...(Object.keys(row) as (keyof SessionInsert)[]).filter((column) => column !== 'expired_at'), 'expired_at' as const];
  const values = columns.map((column) =>
    column === 'expired_at'
      ? `case when (select newcomer_evicted from admitted) then ${slot(row.created_at)}::bigint else ${slot(row.expired_at)}::bigint end`
      : slot(row[column]),
  );
  const text = `with admitted as (select ${call} as newcomer_evicted)
insert into ${identifier(names.session)} (${columns.map(identifier).join(', ')}) values (${values.join(', ')})
returning expired_at`;
  return CompiledQuery.raw(text, parameters);
}

const INT_MAX = 2_147_483_647;

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
