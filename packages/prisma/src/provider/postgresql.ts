import { type PostgresSessionColumns, postgresLoginFunctionSignature, postgresLoginLockKey, postgresLoginStatement } from '@sessauth/core/store';
import { counterState } from './counter-row.js';
import type { ProviderSql } from './provider-sql.js';

/** PostgreSQL through `@prisma/adapter-pg`. */
export const postgresqlSql: ProviderSql = {
  provider: 'postgresql',
  batchedReads: true,
  updateReturning: true,
  // READ COMMITTED, asked for (a database may default to another): each statement sees the latest
  // committed rows, so the read after the login lock sees every login before it.
  isolationLevel: 'ReadCommitted',
  quote: (identifier) => `"${identifier}"`,
  placeholder: (index) => `$${index}`,
  keepStoredRow: 'on conflict ("id") do nothing',

  // The model's fields are its columns in snake case (the @map of sessauth.prisma); every
  // number is a BIGINT column, sent as one.
  loginStatement: (names, row, maxActiveSessions, lockWaitMs) => {
    const columns = Object.fromEntries(
      Object.entries(row).map(([field, value]) => [
        field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
        typeof value === 'number' ? BigInt(value) : value,
      ]),
    ) as unknown as PostgresSessionColumns;
    return postgresLoginStatement({ table: names.sessionTable, schema: names.schema }, columns, maxActiveSessions, { lockWaitMs });
  },

  async hasLoginFunction(client, names) {
    const rows = await client.$queryRawUnsafe<Array<{ present: unknown }>>(
      'select pg_catalog.to_regprocedure($1::text) is not null as "present"',
      postgresLoginFunctionSignature({ table: names.sessionTable, schema: names.schema }),
    );
    return rows[0]?.present === true;
  },

  // A transaction-scoped advisory lock: released by COMMIT/ROLLBACK, no table. The key is the one
  // @sessauth/kysely takes, so the two stores exclude each other on one database. `execute`, not
  // `query`: the function returns void, a type Prisma's result mapping does not read.
  async lockUser(tx, names, userId) {
    await tx.$executeRawUnsafe(
      'select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1::text, 0))',
      postgresLoginLockKey(names.sessionTable, userId),
    );
  },

  async lockSession(tx, names, id) {
    await tx.$executeRawUnsafe(`select 1 from ${names.session} where "id" = $1 for update`, id);
  },

  // One upsert, atomic on its own; a hit after the window ended starts a new one.
  async hitCounter(client, names, key, nowMs, windowMs) {
    const t = names.rateLimit;
    const rows = await client.$queryRawUnsafe<Array<{ count: unknown; reset_at: unknown }>>(
      `insert into ${t} ("counter_key", "count", "reset_at") values ($1, 1, $2)
       on conflict ("counter_key") do update set
         "count" = case when ${t}."reset_at" <= $3 then 1 else ${t}."count" + 1 end,
         "reset_at" = case when ${t}."reset_at" <= $3 then $2 else ${t}."reset_at" end
       returning "count", "reset_at"`,
      key,
      BigInt(nowMs + windowMs),
      BigInt(nowMs),
    );
    return counterState(rows[0]);
  },

  // One data-modifying CTE per counter, each the upsert above; each after the first selects from
  // the one before, so it runs only when that one's new count is within its limit: the hits stop
  // at the first refusal, and the statement is atomic on its own (the keys of one call are
  // distinct: one statement cannot change a row twice). The same statement as @sessauth/kysely's.
  async hitCounters(client, names, hits, nowMs) {
    const t = names.rateLimit;
    const values: unknown[] = [BigInt(nowMs)];
    const param = (value: unknown) => `$${values.push(value)}`;
    const steps = hits.map((hit, index) => {
      // Typed here, whatever types the adapter sends its values with.
      const key = `${param(hit.key)}::text`;
      const resetAt = `${param(BigInt(nowMs + hit.windowMs))}::bigint`;
      const previous = hits[index - 1];
      const source =
        previous === undefined
          ? `values (${key}, 1, ${resetAt})`
          : `select ${key}, 1, ${resetAt} from "h${index - 1}" where "count" <= ${param(BigInt(previous.limit))}::bigint`;
      return `"h${index}" as (
        insert into ${t} ("counter_key", "count", "reset_at") ${source}
        on conflict ("counter_key") do update set
          "count" = case when ${t}."reset_at" <= $1::bigint then 1 else ${t}."count" + 1 end,
          "reset_at" = case when ${t}."reset_at" <= $1::bigint then ${resetAt} else ${t}."reset_at" end
        returning "count", "reset_at")`;
    });
    const answers = hits.map((_, index) => `select ${index} as "step", "count", "reset_at" from "h${index}"`);
    const rows = await client.$queryRawUnsafe<Array<{ count: unknown; reset_at: unknown }>>(
      `with ${steps.join(', ')} ${answers.join(' union all ')} order by "step"`,
      ...values,
    );
    return rows.map((row) => counterState(row));
  },
};
