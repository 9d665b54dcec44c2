import { randomBytes } from 'node:crypto';
import { migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { getTableName } from 'drizzle-orm';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTable } from './support/describe-schema.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

// One layout, one truth: the tables drizzle-kit makes from this package's schema are the tables
// @sessauth/kysely's migrations make, as the database itself reports them (column types,
// nullability, collations, every index and its column order), so a database moves between the
// two stores without a migration.
for (const target of ALL_TARGETS) {
  describe(`drizzle-kit's tables are the Kysely store's tables on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    let kyselyNames: { tableName: string; rateLimitTableName: string };
    let dropKysely = async () => {};
    beforeAll(async () => {
      database = await target.open();
      if (database === null) return;
      const opened = await openKyselyFromUrl(database.url, { poolSize: 1 });
      const suffix = randomBytes(4).toString('hex');
      kyselyNames = { tableName: `sessauth_kysely_${suffix}`, rateLimitTableName: `sessauth_kysely_rl_${suffix}` };
      await migrateToLatest(opened.db, kyselyNames);
      dropKysely = async () => {
        const { tableName, rateLimitTableName } = kyselyNames;
        for (const table of [
          tableName,
          `${tableName}_activity`,
          `${tableName}_user_lock`,
          `${tableName}_migration`,
          `${tableName}_migration_lock`,
          `${tableName}_security_event`,
          rateLimitTableName,
        ]) {
          await sql`drop table if exists ${sql.table(table)}`.execute(opened.db);
        }
        await opened.destroy();
      };
    });
    afterAll(async () => {
      await dropKysely();
      await database?.close();
    });

    it('column for column and index for index', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const { tables, rows, dialect } = database;
      const drizzleSession = getTableName(tables.session);
      const drizzleRateLimit = getTableName(tables.rateLimit);
      const roles = (session: string, rateLimit: string) => (name: string) => name.replaceAll(session, 'SESSION').replaceAll(rateLimit, 'RATE_LIMIT');
      const fromDrizzle = roles(drizzleSession, drizzleRateLimit);
      const fromKysely = roles(kyselyNames.tableName, kyselyNames.rateLimitTableName);
      const pairs: Array<[string, string]> = [
        [drizzleSession, kyselyNames.tableName],
        [drizzleRateLimit, kyselyNames.rateLimitTableName],
        [getTableName(tables.activity), `${kyselyNames.tableName}_activity`],
        [getTableName(tables.securityEvent), `${kyselyNames.tableName}_security_event`],
      ];
      if (dialect === 'mysql') pairs.push([`${drizzleSession}_user_lock`, `${kyselyNames.tableName}_user_lock`]);
      for (const [drizzleTable, kyselyTable] of pairs) {
        const ours = await describeTable(dialect, rows, drizzleTable, fromDrizzle);
        expect(ours.columns.length, drizzleTable).toBeGreaterThan(0);
        expect(ours, drizzleTable).toEqual(await describeTable(dialect, rows, kyselyTable, fromKysely));
      }
    });
  });
}
