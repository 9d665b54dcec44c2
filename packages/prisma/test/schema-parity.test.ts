import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { postgresLoginFunctionDdl } from '@sessauth/core/store';
import { migrateToLatest, openKyselyFromUrl } from '@sessauth/kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTable } from './support/describe-schema.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

// One layout, one truth: the tables this package's migration makes (prisma/<provider>/migrations)
// are the tables @sessauth/kysely's migrations make, as the database itself reports them (column
// types, nullability, collations, every index and its column order). Kysely migrates a second,
// empty namespace under the same default names.
for (const target of ALL_TARGETS) {
  describe(`the Prisma migration's tables are the Kysely store's tables on ${target.label}`, () => {
    let prismaSide: TestDatabase | null = null;
    let kyselySide: TestDatabase | null = null;
    beforeAll(async () => {
      prismaSide = await target.open('migration');
      kyselySide = await target.open('empty');
      if (kyselySide === null) return;
      const opened = await openKyselyFromUrl(kyselySide.url, { poolSize: 1 });
      try {
        await migrateToLatest(opened.db);
      } finally {
        await opened.destroy();
      }
    });
    afterAll(async () => {
      await prismaSide?.close();
      await kyselySide?.close();
    });

    it('column for column and index for index', async (test) => {
      if (prismaSide === null || kyselySide === null) return test.skip('server unreachable');
      const tables = [
        'sessauth_session',
        'sessauth_rate_limit',
        'sessauth_session_activity',
        'sessauth_session_security_event',
        ...(target.provider === 'mysql' ? ['sessauth_session_user_lock'] : []),
      ];
      const same = (name: string) => name;
      for (const table of tables) {
        const ours = await describeTable(prismaSide.dialect, prismaSide.rows, table, same);
        expect(ours.columns.length, table).toBeGreaterThan(0);
        expect(ours, table).toEqual(await describeTable(kyselySide.dialect, kyselySide.rows, table, same));
      }
    });
  });
}

// The login function (PostgreSQL): migration 0007 is the statement @sessauth/kysely's migration
// 0009 runs and Drizzle's custom migration holds (the core's `postgresLoginFunctionDdl`), written
// out readable, so a database moves between the stores with the same function.
describe("Prisma's migration 0007 (PostgreSQL) is the stores' one login function", () => {
  it('statement for statement, whitespace aside', () => {
    const file = readFileSync(
      fileURLToPath(new URL('../prisma/postgresql/migrations/0007_sessauth_login_function/migration.sql', import.meta.url)),
      'utf8',
    );
    const statement = file
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n')
      .replace(/\s+/g, ' ')
      .trim();
    expect(statement).toBe(`${postgresLoginFunctionDdl('sessauth_session').create};`);
  });
});
