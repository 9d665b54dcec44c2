import { counterState } from './counter-row.js';
import type { ProviderSql } from './provider-sql.js';

/** MySQL and MariaDB through `@prisma/adapter-mariadb`: no RETURNING, row locks, a lock row per user. */
export const mysqlSql: ProviderSql = {
  provider: 'mysql',
  batchedReads: true,
  updateReturning: false,
  // READ COMMITTED: locking reads take no gap locks, so logins of different users never block
  // or deadlock each other on index gaps.
  isolationLevel: 'ReadCommitted',
  quote: (identifier) => `\`${identifier}\``,
  placeholder: () => '?',
  // Not INSERT IGNORE, which would also turn a too-long value into a warning: a no-op assignment.
  keepStoredRow: 'on duplicate key update `id` = `id`',

  // No transaction-scoped advisory lock in MySQL: the upsert takes an exclusive lock on the
  // user's row, also for a first login, held until COMMIT (the row @sessauth/kysely locks).
  async lockUser(tx, names, userId) {
    await tx.$executeRawUnsafe(`insert into ${names.userLock} (\`user_id\`) values (?) on duplicate key update \`user_id\` = \`user_id\``, userId);
  },

  async lockSession(tx, names, id) {
    await tx.$executeRawUnsafe(`select 1 from ${names.session} where \`id\` = ? for update`, id);
  },

  // The upsert locks the row and the read in the same transaction sees what it wrote. MySQL
  // runs the assignments left to right, so `count` is decided before `reset_at` changes.
  hitCounter: (client, names, key, nowMs, windowMs, within) =>
    Promise.resolve(
      client.$transaction(async (tx) => {
        const resetAt = BigInt(nowMs + windowMs);
        const now = BigInt(nowMs);
        await tx.$executeRawUnsafe(
          `insert into ${names.rateLimit} (\`counter_key\`, \`count\`, \`reset_at\`) values (?, 1, ?)
             on duplicate key update
               \`count\` = if(\`reset_at\` <= ?, 1, \`count\` + 1),
               \`reset_at\` = if(\`reset_at\` <= ?, ?, \`reset_at\`)`,
          key,
          resetAt,
          now,
          now,
          resetAt,
        );
        return counterState((await tx.sessauthRateLimit.findUnique({ where: { counterKey: key } })) ?? undefined);
      }, within),
    ),

  async nonBinaryCollation(client, checks) {
    for (const [table, columns] of checks) {
      const rows = await client.$queryRawUnsafe<Array<{ name: string; collation: string | null }>>(
        `select column_name as name, collation_name as collation from information_schema.columns
         where table_schema = database() and table_name = ? and column_name in (${columns.map(() => '?').join(', ')})`,
        table,
        ...columns,
      );
      const wrong = rows.find((row) => row.collation === null || !row.collation.endsWith('_bin'));
      if (wrong !== undefined) return { table, column: `${table}.${wrong.name} (${wrong.collation ?? 'no collation'})` };
    }
    return null;
  },
};
