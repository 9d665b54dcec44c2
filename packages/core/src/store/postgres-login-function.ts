import { statementValues } from './statement-values.js';

/**
 * A login's write on PostgreSQL as one round trip, shared by every store that keeps sessions in
 * a PostgreSQL table of the shared layout (@sessauth/kysely, @sessauth/prisma, @sessauth/drizzle),
 * so a database moves between them with the same function.
 *
 * PostgreSQL runs one statement on one snapshot, so a statement cannot take the user's lock and
 * then read the sessions committed while it waited; a VOLATILE PL/pgSQL function can (each
 * statement in it reads with a fresh snapshot under READ COMMITTED). `<table>_evict_beyond_cap`
 * takes the user's advisory lock (the key the stores' transactions take, so both forms serialise
 * against each other while a fleet is half upgraded), revokes the oldest active sessions beyond
 * the cap counting the newcomer (newest `cap` kept, by `created_at` then id in byte order), and
 * answers whether the newcomer itself is among them. The login's one statement calls it and then
 * inserts the row; the lock is held until that statement's implicit COMMIT, so concurrent logins
 * of one user never leave more than the cap active. Only five columns are named in the function,
 * so later columns need no new version of it: the insert stays the store's.
 *
 * Under REPEATABLE READ or SERIALIZABLE (a database's `default_transaction_isolation`) its
 * statements would read the snapshot taken before the lock was granted, so it refuses with
 * SQLSTATE SA001 and the store takes its transaction, which asks for READ COMMITTED. It keeps the
 * search_path it was created with, so it finds its table in the schema its migration ran in
 * whatever the caller's search_path (a Prisma `schema` off the search path). The caller names the
 * table its insert goes to (as a `regclass`, resolved on the caller's side); a function whose own
 * table is another one (two schemas on the caller's search_path, the function found in one, the
 * insert landing in the other) refuses with SA002, so the cap is never counted in one table and
 * kept in another. It waits for the lock no longer than the caller's deadline (`lock_timeout`,
 * for this statement only), so a login the store already answered with 503 does not commit later.
 * The call casts every argument, so no overload of another schema can be chosen in its place;
 * built-ins are named with `pg_catalog`.
 */
export const POSTGRES_NEEDS_READ_COMMITTED = 'SA001';

/** The function's own table is not the one the caller inserts into: the store takes its transaction. */
export const POSTGRES_OTHER_TABLE = 'SA002';

/** PostgreSQL's undefined_function: the store's migration has not created the function yet. */
export const POSTGRES_UNDEFINED_FUNCTION = '42883';

/** Where PostgreSQL raises undefined_function for a call naming a function that is not there (the error's `routine`). */
export const POSTGRES_FUNCTION_LOOKUP = 'ParseFuncOrColumn';

/** The function's argument types, as `to_regprocedure` and `drop function` name them. */
const ARGUMENTS = '(text, text, text, bigint, integer, regclass, integer)';

/** Where a PostgreSQL store's session table is. */
export interface PostgresSessionTable {
  /** The session table's name, unquoted. */
  readonly table: string;
  /** Its schema, when the store names one; otherwise the search_path finds both table and function. */
  readonly schema?: string | undefined;
}

/** The login function's name: `<table>_evict_beyond_cap`. */
export function postgresLoginFunctionName(table: string): string {
  return `${table}_evict_beyond_cap`;
}

/** The function with its argument types, for `to_regprocedure` (does this database have it?). */
export function postgresLoginFunctionSignature(where: PostgresSessionTable): string {
  return `${qualified(where, postgresLoginFunctionName(where.table))}${ARGUMENTS}`;
}

/** The advisory lock key of a user's logins, the same in every store and in both forms. */
export function postgresLoginLockKey(table: string, userId: string): string {
  return `${table}:${userId}`;
}

/**
 * The statements that create and drop the function, each on one line, for a store's migration.
 * Run them with the search_path of the migration that made the table (the function keeps it).
 */
export function postgresLoginFunctionDdl(table: string): { create: string; drop: string } {
  const name = postgresLoginFunctionName(table);
  const fn = identifier(name);
  const create = `create or replace function ${fn}(p_lock_key text, p_user_id text, p_newcomer_id text, p_now bigint, p_cap integer, p_table regclass, p_lock_wait_ms integer)
returns boolean language plpgsql volatile set search_path from current as $sessauth$
declare
  v_newcomer_evicted boolean;
begin
  if pg_catalog.current_setting('transaction_isolation') <> 'read committed' then
    raise exception 'sessauth: % needs READ COMMITTED', ${literal(name)} using errcode = '${POSTGRES_NEEDS_READ_COMMITTED}';
  end if;
  if p_table is distinct from pg_catalog.to_regclass(${literal(identifier(table))}) then
    raise exception 'sessauth: % keeps the cap of another table than %', ${literal(name)}, p_table using errcode = '${POSTGRES_OTHER_TABLE}';
  end if;
  perform pg_catalog.set_config('lock_timeout', greatest(p_lock_wait_ms, 1)::text || 'ms', true);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_lock_key, 0));
  with evicted as (
    select id from (
      select id, row_number() over (order by created_at desc, id collate "C" desc) as place
      from (
        select id, created_at from ${identifier(table)} where user_id = p_user_id and expired_at is null and expires_at > p_now
        union all select p_newcomer_id, p_now
      ) active
    ) ranked where place > greatest(p_cap, 0)
  ), revoked as (
    update ${identifier(table)} set expired_at = p_now
    where id in (select id from evicted) and id <> p_newcomer_id and expired_at is null
  )
  select exists (select 1 from evicted where id = p_newcomer_id) into v_newcomer_evicted;
  return v_newcomer_evicted;
end
$sessauth$`;
  return { create: create.replace(/\s+/g, ' '), drop: `drop function if exists ${fn}${ARGUMENTS}` };
}

/** The session row to insert, by database column name, in the order the columns are listed. */
export interface PostgresSessionColumns {
  readonly id: string;
  readonly user_id: string;
  readonly created_at: number | bigint;
  readonly expired_at: number | bigint | null;
}

/** How the login statement is written for a store. */
export interface PostgresLoginStatementOptions {
  /** The longest the function waits for the user's lock: the store call's deadline. */
  readonly lockWaitMs: number;
  /**
   * The text standing for the `index`-th value (1-based). @default `$index`. A store that binds
   * values its own way (drizzle's `sql`) gives a marker no identifier can hold, and splits on it.
   */
  readonly placeholder?: (index: number) => string;
}

/**
 * The login statement: the function, then the insert, whose `expired_at` is the login's time when
 * the newcomer was itself evicted (logins arriving out of order). Answers one row: the newcomer's
 * `expired_at` as stored. Without the function PostgreSQL refuses it as an undefined function
 * (42883, routine `ParseFuncOrColumn`) before anything ran; SA001 and SA002 also roll back whole.
 */
export function postgresLoginStatement<Row extends PostgresSessionColumns>(
  where: PostgresSessionTable,
  row: Row,
  maxActiveSessions: number,
  options: PostgresLoginStatementOptions,
): { text: string; parameters: unknown[] } {
  const { parameters, slot } = statementValues(options.placeholder ?? ((index: number) => `$${index}`));
  // A cap that is not a finite number means no cap, as in the transactions' arithmetic.
  const cap = Number.isFinite(maxActiveSessions) ? Math.min(Math.max(0, Math.trunc(maxActiveSessions)), INT_MAX) : INT_MAX;
  const lockWaitMs = Number.isFinite(options.lockWaitMs) ? Math.min(Math.max(1, Math.ceil(options.lockWaitMs)), INT_MAX) : INT_MAX;
  const table = qualified(where, where.table);
  const call = `${qualified(where, postgresLoginFunctionName(where.table))}(${slot(postgresLoginLockKey(where.table, row.user_id))}::text, ${slot(row.user_id)}::text, ${slot(row.id)}::text, ${slot(row.created_at)}::bigint, ${slot(cap)}::integer, ${slot(table)}::text::regclass, ${slot(lockWaitMs)}::integer)`;
  // `expired_at` always comes last and always reads the CTE: PostgreSQL skips a CTE nothing reads,
  // and with it the lock.
  const columns = [...(Object.keys(row) as (keyof Row & string)[]).filter((column) => column !== 'expired_at'), 'expired_at' as const];
  const values = columns.map((column) =>
    column === 'expired_at'
      ? `case when (select newcomer_evicted from admitted) then ${slot(row.created_at)}::bigint else ${slot(row.expired_at)}::bigint end`
      : slot(row[column]),
  );
  const text = `with admitted as (select ${call} as newcomer_evicted)
insert into ${table} (${columns.map(identifier).join(', ')}) values (${values.join(', ')})
returning expired_at`;
  return { text, parameters };
}

/** A name as a statement names it: quoted, with the schema when the store has one. */
function qualified(where: PostgresSessionTable, name: string): string {
  return where.schema === undefined ? identifier(name) : `${identifier(where.schema)}.${identifier(name)}`;
}

const INT_MAX = 2_147_483_647;

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
