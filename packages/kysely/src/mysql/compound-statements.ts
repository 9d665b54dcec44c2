import { CompiledQuery } from 'kysely';
import type { CounterHit } from '../dialect/sql-dialect.js';
import type { TableNames } from '../schema.js';
import type { SessionInsert } from '../session-row.js';

/**
 * Login's write on MariaDB as one round trip: one compound statement (`BEGIN NOT ATOMIC ... END`,
 * MariaDB 10.1.1+; MySQL has none and answers a syntax error, and the store then keeps its
 * transaction of statements). Inside it, the same steps as that transaction, in READ COMMITTED:
 * the user's lock row (an upsert, held to COMMIT, also for a first login), the ids to revoke
 * (the user's active sessions and the newcomer, newest `cap` kept, by `created_at` then id),
 * the revocation, the insert; any error rolls back and reaches the client. Each statement reads
 * after the lock, so concurrent logins of one user never leave more than the cap active. It
 * answers one row: the newcomer's `expired_at` (set when it is itself among the oldest).
 */
export function oneTripCreateMariaDb(names: TableNames, row: SessionInsert, maxActiveSessions: number): CompiledQuery {
  const table = identifier(names.session);
  const cap = Math.max(0, Math.trunc(maxActiveSessions));
  const now = row.created_at;
  const evicted = `select id from (select id, row_number() over (order by created_at desc, id desc) as place from (
      select id, created_at from ${table} where user_id = ? and expired_at is null and expires_at > ?
      union all select ?, ?) active) ranked where place > ?`;
  const evictedParameters = [row.user_id, now, row.id, now, cap];
  const columns = Object.keys(row) as (keyof SessionInsert)[];
  const values = columns.map((column) => (column === 'expired_at' ? 'if(v_self > 0, ?, ?)' : '?'));
  const valueParameters = columns.flatMap((column) => (column === 'expired_at' ? [now, row.expired_at] : [row[column]]));
  const text = `begin not atomic
  declare v_self int default 0;
  declare exit handler for sqlexception begin rollback; resignal; end;
  set transaction isolation level read committed;
  start transaction;
  insert into ${identifier(names.userLock)} (user_id) values (?) on duplicate key update user_id = user_id;
  select count(*) into v_self from (${evicted}) evicted where id = ?;
  update ${table} join (${evicted}) evicted on ${table}.id = evicted.id set ${table}.expired_at = ? where ${table}.expired_at is null;
  insert into ${table} (${columns.map(identifier).join(', ')}) values (${values.join(', ')});
  commit;
  select if(v_self > 0, ?, ?) as expired_at;
end`;
  return CompiledQuery.raw(text, [row.user_id, ...evictedParameters, row.id, ...evictedParameters, now, ...valueParameters, now, row.expired_at]);
}

function identifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/**
 * The refresh swap on MariaDB as one round trip: the conditional UPDATE, then, only when it
 * changed the row, its read-back, in one compound statement (no RETURNING on UPDATE there). No
 * result set means no swap.
 */
export function oneTripRotateMariaDb(update: CompiledQuery, read: CompiledQuery): CompiledQuery {
  return CompiledQuery.raw(
    `begin not atomic
  ${update.sql};
  if row_count() = 1 then
    ${read.sql};
  end if;
end`,
    [...update.parameters, ...read.parameters],
  );
}

/**
 * Several rate-limit hits on MariaDB as one round trip: in one compound statement and one READ
 * COMMITTED transaction, per counter the upsert (which locks its row to COMMIT) and the read of
 * what it wrote, leaving the block after the first count above its limit; then one row with the
 * count and window end of each counter (null for the hits not made).
 */
export function oneTripHitsMariaDb(table: string, hits: readonly CounterHit[], nowMs: number): CompiledQuery {
  const t = identifier(table);
  const parameters: unknown[] = [];
  const steps = hits.map((hit, index) => {
    const resetAtMs = nowMs + hit.windowMs;
    parameters.push(hit.key, resetAtMs, nowMs, nowMs, resetAtMs, hit.key, hit.limit);
    return `insert into ${t} (counter_key, count, reset_at) values (?, 1, ?)
      on duplicate key update count = if(reset_at <= ?, 1, count + 1), reset_at = if(reset_at <= ?, ?, reset_at);
    select count, reset_at into c${index}, r${index} from ${t} where counter_key = ?;
    if c${index} > ? then leave hits; end if;`;
  });
  const variables = hits.map((_, index) => `c${index}, r${index}`).join(', ');
  return CompiledQuery.raw(
    `begin not atomic
  declare ${variables} bigint default null;
  declare exit handler for sqlexception begin rollback; resignal; end;
  set transaction isolation level read committed;
  start transaction;
  hits: begin
    ${steps.join('\n    ')}
  end hits;
  commit;
  select ${hits.map((_, index) => `c${index} as c${index}, r${index} as r${index}`).join(', ')};
end`,
    parameters,
  );
}
