import { CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminListingQuery } from '../src/admin-listing.js';
import { selectPurgeBatch } from '../src/purge-expired.js';
import { createStoreContext, type StoreContext } from '../src/store-context.js';
import { seedSessions } from './support/seed-sessions.js';
import { mysqlTarget, postgresTarget, sqliteTarget, type TestDatabase, type TestTarget } from './support/test-databases.js';

/** The plan of a statement, one line per plan node (PostgreSQL, SQLite) or row (MySQL). */
async function planOf(db: Kysely<unknown>, dialect: TestDatabase['dialect'], query: CompiledQuery): Promise<string[]> {
  const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + query.sql, [...query.parameters]));
  if (dialect === 'postgres') return rows.map((row) => String(row['QUERY PLAN']));
  if (dialect === 'sqlite') return rows.map((row) => String(row.detail));
  return rows.map((row) => `type=${String(row.type)} key=${String(row.key)} table=${String(row.table)}`);
}

function expectIndexedPlan(dialect: TestDatabase['dialect'], table: string, plan: string[], what: string): void {
  const text = plan.join('\n');
  if (dialect === 'postgres') {
    expect(text, what).toMatch(/Index/);
    expect(text, what).not.toMatch(/Seq Scan/);
  } else if (dialect === 'sqlite') {
    expect(text, what).toMatch(/USING (COVERING )?INDEX|USING (INTEGER )?PRIMARY KEY/);
    // "SCAN <table>" with no index named is a full table scan.
    expect(
      plan.some((line) => line.trim() === `SCAN ${table}`),
      `${what}\n${text}`,
    ).toBe(false);
  } else {
    for (const line of plan) {
      expect(line, `${what}\n${text}`).not.toMatch(/type=ALL\b/);
      expect(line, `${what}\n${text}`).not.toMatch(/key=(null|undefined)\b/);
    }
  }
}

function describePlans(target: TestTarget): void {
  describe(`query plans over 100,000 sessions on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    let ctx: StoreContext;
    const now = Date.now();
    beforeAll(async () => {
      database = await target.open();
      if (database === null) return;
      await seedSessions(database.db, database.dialect, database.tableName, now);
      ctx = createStoreContext(database.db, { tableName: database.tableName });
    }, 120_000);
    afterAll(async () => {
      await database?.close();
    });

    it("get-by-id, a user's sessions, the login cap, rotate, revoke-all, purge and the admin page use indexes", async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { db, dialect, tableName } = database;
      const { queries } = ctx;
      const statements: Record<string, CompiledQuery> = {
        'findSession (get by id)': queries.findById.bind({ id: 'seed-50000' }),
        listActiveSessions: queries.listActive.bind({ userId: 'user-123', now }),
        'login cap: oldest active': queries.activeOldestFirst.bind({ userId: 'user-123', now }),
        'rotateRefresh CAS': queries.rotate.bind({
          id: 'seed-50000',
          userId: 'user-0',
          presentedJti: 'jti-50000',
          nextJti: 'x',
          stamp: 'stamp',
          now,
          idleCutoff: -1,
        }),
        touchSession: queries.touch.bind({ id: 'seed-50000', now }),
        expireAllForUser: queries.expireAll.bind({ userId: 'user-123', now }),
        'purge: revoked batch': selectPurgeBatch(ctx, 'expired_at', now).compile(),
        'purge: ended batch': selectPurgeBatch(ctx, 'expires_at', now).compile(),
        'admin: first page': adminListingQuery(ctx, { now: new Date(now), limit: 50 }).compile(),
        'admin: one user': adminListingQuery(ctx, { userId: 'user-123', now: new Date(now), limit: 50 }).compile(),
      };
      for (const [what, query] of Object.entries(statements)) {
        const plan = await planOf(db, dialect, query);
        if (process.env.SESSAUTH_SHOW_PLANS === '1') console.log(`[${dialect}] ${what}\n  ${plan.join('\n  ')}`);
        expectIndexedPlan(dialect, tableName, plan, what);
      }
    }, 60_000);

    it('the seed is really there (the plans are not of an empty table)', async (test) => {
      if (database === null) return test.skip('its server is unreachable (named in the skip line above)');
      const { rows } = await database.db.executeQuery<{ c: number | string }>(CompiledQuery.raw(`select count(*) as c from ${database.tableName}`));
      expect(Number(rows[0]?.c)).toBe(100_000);
    });
  });
}

describePlans(postgresTarget);
describePlans(sqliteTarget);
describePlans(mysqlTarget);
