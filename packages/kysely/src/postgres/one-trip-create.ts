import { CompiledQuery } from 'kysely';
import type { TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

/**
 * Login's write on PostgreSQL as one round trip: two statements in one simple-protocol query,
 * which the server runs as one implicit transaction. The first takes the user's advisory lock
 * (held to the end of that transaction); the second, which takes its snapshot only then, sees
 * every login of the user that committed before, revokes the oldest active sessions beyond the
 * cap and inserts the new one. The lock must come in a statement of its own: a statement's
 * snapshot is taken when it starts, so a lock taken inside it would not make a concurrent
 * login's new row visible to it, and two logins could both stay under the cap.
 *
 * The simple protocol has no parameters, so every value is a literal here, quoted as `pg`
 * quotes them (`E'...'` with doubled backslashes when there is one, doubled quotes): values
 * cannot end a literal. Numbers must be safe integers (epoch milliseconds). The last
 * statement answers the new row's `expired_at` (set when the newcomer is itself among the
 * oldest beyond the cap).
 */
export function oneTripCreatePostgres(names: TableNames, row: SessionInsert, maxActiveSessions: number): CompiledQuery {
  const table = identifier(names.session);
  const cap = Math.max(0, Math.trunc(maxActiveSessions));
  const id = literal(row.id);
  const now = literal(row.created_at);
  const columns = Object.keys(row) as (keyof SessionInsert)[];
  const values = columns.map((column) =>
    column === 'expired_at'
      ? `case when exists (select 1 from evicted where id = ${id}) then ${now} else ${literal(row.expired_at)} end`
      : literal(row[column]),
  );
  return CompiledQuery.raw(`select pg_advisory_xact_lock(hashtextextended(${literal(`${names.session}:${row.user_id}`)}, 0));
with active as (
  select id, created_at from ${table} where user_id = ${literal(row.user_id)} and expired_at is null and expires_at > ${now}
  union all select ${id}, ${now}
), evicted as (
  select id from (select id, row_number() over (order by created_at desc, id collate "C" desc) as place from active) ranked where place > ${cap}
), revoked as (
  update ${table} set expired_at = ${now} where id in (select id from evicted where id <> ${id}) and expired_at is null
)
insert into ${table} (${columns.map(identifier).join(', ')}) values (${values.join(', ')})
returning expired_at`);
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A value as a PostgreSQL literal: null, a safe integer, or a string quoted as `pg`'s `escapeLiteral` does. */
function literal(value: string | number | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError('@sessauth/kysely: a number written in one trip must be a safe integer');
    return `${value}`;
  }
  if (typeof value !== 'string') throw new TypeError('@sessauth/kysely: unexpected value type');
  let hasBackslash = false;
  let quoted = "'";
  for (const char of value) {
    if (char === "'") quoted += "''";
    else if (char === '\\') {
      quoted += '\\\\';
      hasBackslash = true;
    } else quoted += char;
  }
  quoted += "'";
  return hasBackslash ? ` E${quoted}` : quoted;
}
