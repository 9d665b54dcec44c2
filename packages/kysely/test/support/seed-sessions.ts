import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../src/index.js';

export const SEED_ROWS = 100_000;
const DAY = 86_400_000;

/**
 * Seeds `SEED_ROWS` sessions with one INSERT ... SELECT over generated numbers:
 * 10,000 users with ten sessions each, one in twenty revoked and one in twenty
 * naturally ended (a production-like mix), created a second apart before `nowMs`.
 * Then refreshes the planner's statistics.
 */
export async function seedSessions(db: Kysely<unknown>, dialect: DialectName, table: string, nowMs: number): Promise<void> {
  const n = sql.ref('n');
  const text = (prefix: string, value: RawBuilder<unknown> | typeof n): RawBuilder<unknown> =>
    dialect === 'mysql' ? sql`concat(${sql.lit(prefix)}, ${value})` : sql`${sql.lit(prefix)} || ${value}`;
  const created = sql`(${sql.lit(nowMs - SEED_ROWS * 1000)} + ${n} * 1000)`;
  const select = sql`select ${text('seed-', n)}, ${text('user-', sql`(${n} % 10000)`)}, ${text('jti-', n)}, 'stamp',
      ${created}, ${created},
      case when ${n} % 20 = 1 then ${created} + 1000 else ${sql.lit(nowMs + 14 * DAY)} end,
      case when ${n} % 20 = 2 then ${created} + 500 else null end`;
  const target = sql`${sql.table(table)}
    (id, user_id, refresh_jti, security_stamp, created_at, last_activity_at, expires_at, expired_at)`;
  const numbers = sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < ${sql.lit(SEED_ROWS)})`;
  // MariaDB caps recursion (max_recursive_iterations): five crossed digit tables instead.
  const digits = sql`with d(v) as (select 0 union all select 1 union all select 2 union all select 3 union all
    select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)`;
  const crossed = sql`(select a.v + 10 * b.v + 100 * c.v + 1000 * e.v + 10000 * f.v + 1 as n
    from d a cross join d b cross join d c cross join d e cross join d f) s`;

  if (dialect === 'postgres') {
    await sql`insert into ${target} ${select} from generate_series(1, ${sql.lit(SEED_ROWS)}) as s(n)`.execute(db);
    await sql`analyze ${sql.table(table)}`.execute(db);
  } else if (dialect === 'sqlite') {
    await sql`${numbers} insert into ${target} ${select} from s`.execute(db);
    await sql`analyze`.execute(db);
  } else {
    await sql`insert into ${target} ${digits} ${select} from ${crossed}`.execute(db);
    await sql`analyze table ${sql.table(table)}`.execute(db);
  }
}
