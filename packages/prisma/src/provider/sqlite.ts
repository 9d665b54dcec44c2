import { counterState } from './counter-row.js';
import type { ProviderSql } from './provider-sql.js';

/**
 * SQLite through `@prisma/adapter-better-sqlite3`. The adapter runs one transaction at a time
 * on its one connection, and SQLite's write lock excludes other processes (a transaction that
 * meets it gets SQLITE_BUSY and is run again), so neither lock needs a statement here.
 */
export const sqliteSql: ProviderSql = {
  provider: 'sqlite',
  batchedReads: false,
  updateReturning: true,
  // No isolation level: SQLite transactions are serializable, and the adapter refuses any other.
  quote: (identifier) => `"${identifier}"`,
  placeholder: () => '?',
  keepStoredRow: 'on conflict ("id") do nothing',
  lockUser: () => Promise.resolve(),
  lockSession: () => Promise.resolve(),

  async hitCounter(client, names, key, nowMs, windowMs) {
    const t = names.rateLimit;
    const resetAt = BigInt(nowMs + windowMs);
    const now = BigInt(nowMs);
    const rows = await client.$queryRawUnsafe<Array<{ count: unknown; reset_at: unknown }>>(
      `insert into ${t} ("counter_key", "count", "reset_at") values (?, 1, ?)
       on conflict ("counter_key") do update set
         "count" = case when ${t}."reset_at" <= ? then 1 else ${t}."count" + 1 end,
         "reset_at" = case when ${t}."reset_at" <= ? then ? else ${t}."reset_at" end
       returning "count", "reset_at"`,
      key,
      resetAt,
      now,
      now,
      resetAt,
    );
    return counterState(rows[0]);
  },
};
