import { statementValues } from './statement-values.js';

/**
 * A login's write and a login's rate-limit hits on MariaDB, each as one round trip, shared by the
 * stores that keep them in MySQL/MariaDB tables of the shared layout (@sessauth/kysely,
 * @sessauth/drizzle): one compound statement each (`BEGIN NOT ATOMIC ... END`, MariaDB 10.1.1+,
 * sent over the text protocol). MySQL has no compound statement outside a stored program and
 * refuses one as a syntax error (`MYSQL_PARSE_ERROR`) before anything ran; the store then keeps
 * its transaction of statements.
 *
 * The login's write: inside it, the same steps as that transaction, in READ COMMITTED: the user's lock row (an
 * upsert into `<table>_user_lock`, held to COMMIT, also for a first login), the ids to revoke (the
 * user's active sessions and the newcomer, newest `cap` kept, by `created_at` then id), the
 * revocation, the insert; any error rolls back and reaches the client. Each statement reads after
 * the lock, so concurrent logins of one user never leave more than the cap active, and the
 * transactions of a store that has not moved to this form exclude it through the same row. It
 * answers one row: the newcomer's `expired_at` (its login time when it was itself among the
 * oldest, logins arriving out of order).
 */
export const MYSQL_PARSE_ERROR = 1064;

/** The tables of the login's write. */
export interface MariaDbSessionTables {
  readonly table: string;
  readonly userLockTable: string;
}

/** The session row to insert, by database column name. */
export interface MariaDbSessionColumns {
  readonly id: string;
  readonly user_id: string;
  readonly created_at: number | bigint;
  readonly expired_at: number | bigint | null;
}

/**
 * The compound statement, with `?` for each value (mysql2's and the mariadb driver's placeholder)
 * unless `placeholder` writes them another way (a store that binds values its own way splits on it).
 */
export function mariadbLoginStatement<Row extends MariaDbSessionColumns>(
  tables: MariaDbSessionTables,
  row: Row,
  maxActiveSessions: number,
  placeholder: (index: number) => string = () => '?',
): { text: string; parameters: unknown[] } {
  const { parameters, slot } = statementValues(placeholder);
  const table = identifier(tables.table);
  const cap = Number.isFinite(maxActiveSessions) ? Math.max(0, Math.trunc(maxActiveSessions)) : Number.MAX_SAFE_INTEGER;
  const now = row.created_at;
  const active = () => `user_id = ${slot(row.user_id)} and expired_at is null and expires_at > ${slot(now)}`;
  const lock = `insert into ${identifier(tables.userLockTable)} (user_id) values (${slot(row.user_id)}) on duplicate key update user_id = user_id;`;
  // The user's active sessions, and how many of them rank above the newcomer (newest first: by
  // created_at, then id); the newcomer is itself beyond the cap when at least `cap` do.
  const count = `select count(*), coalesce(sum(created_at > ${slot(now)} or (created_at = ${slot(now)} and id > ${slot(row.id)})), 0)
    into v_active, v_newer from ${table} where ${active()};`;
  const decide = `set v_self = v_newer >= ${slot(cap)};
  set v_revoke = v_active + 1 - ${slot(cap)} - v_self;`;
  // The oldest beyond the cap, counting the newcomer: `v_revoke` of the active ones, oldest first.
  const revoke = `if v_revoke > 0 then
    update ${table} set expired_at = ${slot(now)} where ${active()} order by created_at asc, id asc limit v_revoke;
  end if;`;
  const columns = Object.keys(row) as (keyof Row & string)[];
  const values = columns.map((column) => (column === 'expired_at' ? `if(v_self, ${slot(now)}, ${slot(row.expired_at)})` : slot(row[column])));
  const insert = `insert into ${table} (${columns.map(identifier).join(', ')}) values (${values.join(', ')});`;
  const answer = `select if(v_self, ${slot(now)}, ${slot(row.expired_at)}) as expired_at;`;
  const text = `begin not atomic
  declare v_active, v_newer, v_revoke bigint default 0;
  declare v_self boolean default false;
  declare exit handler for sqlexception begin rollback; resignal; end;
  set transaction isolation level read committed;
  start transaction;
  ${lock}
  ${count}
  ${decide}
  ${revoke}
  ${insert}
  commit;
  ${answer}
end`;
  return { text, parameters };
}

function identifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/** One counter of a `mariadbCounterHitsStatement` (its key as stored). */
export interface MariaDbCounterHit {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
}

/**
 * Several rate-limit hits on MariaDB as one round trip (the rate-limit port's `hitMany`), on a
 * counters table of the shared layout (`counter_key`, `count`, `reset_at`): in one compound
 * statement and one READ COMMITTED transaction, per counter the upsert (which locks its row to
 * COMMIT; a hit after the window ended starts a new one) and the read of what it wrote, leaving
 * the block after the first count above its limit; then one row with the count and window end of
 * each counter, `c<i>` and `r<i>` (null for the hits not made). MySQL refuses it as
 * `MYSQL_PARSE_ERROR`.
 */
export function mariadbCounterHitsStatement(
  table: string,
  hits: readonly MariaDbCounterHit[],
  nowMs: number,
  placeholder: (index: number) => string = () => '?',
): { text: string; parameters: unknown[] } {
  const t = identifier(table);
  const { parameters, slot } = statementValues(placeholder);
  const steps = hits.map((hit, index) => {
    const resetAtMs = nowMs + hit.windowMs;
    return `insert into ${t} (counter_key, count, reset_at) values (${slot(hit.key)}, 1, ${slot(resetAtMs)})
      on duplicate key update count = if(reset_at <= ${slot(nowMs)}, 1, count + 1), reset_at = if(reset_at <= ${slot(nowMs)}, ${slot(resetAtMs)}, reset_at);
    select count, reset_at into c${index}, r${index} from ${t} where counter_key = ${slot(hit.key)};
    if c${index} > ${slot(hit.limit)} then leave hits; end if;`;
  });
  const variables = hits.map((_, index) => `c${index}, r${index}`).join(', ');
  const text = `begin not atomic
  declare ${variables} bigint default null;
  declare exit handler for sqlexception begin rollback; resignal; end;
  set transaction isolation level read committed;
  start transaction;
  hits: begin
    ${steps.join('\n    ')}
  end hits;
  commit;
  select ${hits.map((_, index) => `c${index} as c${index}, r${index} as r${index}`).join(', ')};
end`;
  return { text, parameters };
}
