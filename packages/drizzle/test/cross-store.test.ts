import { randomBytes } from 'node:crypto';
import { newSessionFixture, randomHex } from '@sessauth/conformance';
import { KyselySessionStore, migrateToLatest, openKyselyFromUrl, type OpenedDatabase } from '@sessauth/kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleSessionStore } from '../src/index.js';
import { sessauthMysqlTables } from '../src/mysql/schema.js';
import { sessauthPgTables } from '../src/pg/schema.js';
import { sessauthSqliteTables } from '../src/sqlite/schema.js';
import { ALL_TARGETS, type TestDatabase } from './support/test-databases.js';

// A host moving from @sessauth/kysely to @sessauth/drizzle keeps its database: the Drizzle store
// serves the tables Kysely's migrations made, and while both run (a rolling deploy) they take
// the same per-user lock and honour each other's rotations.
for (const target of ALL_TARGETS) {
  describe(`the Drizzle store on tables @sessauth/kysely migrated, beside a Kysely store, on ${target.label}`, () => {
    let database: TestDatabase | null = null;
    let kysely: OpenedDatabase;
    let tableName = '';
    let stores: { drizzle: DrizzleSessionStore; kysely: KyselySessionStore };
    beforeAll(async () => {
      // Only for its connection: this run's own tables come from Kysely below.
      database = await target.open();
      if (database === null) return;
      kysely = await openKyselyFromUrl(database.url, { poolSize: 10 });
      tableName = `sessauth_moved_${randomBytes(4).toString('hex')}`;
      await migrateToLatest(kysely.db, { tableName, rateLimitTableName: `${tableName}_rl` });
      const names = { tableName, rateLimitTableName: `${tableName}_rl` };
      const tables =
        target.dialect === 'postgres'
          ? sessauthPgTables(names)
          : target.dialect === 'mysql'
            ? sessauthMysqlTables(names)
            : sessauthSqliteTables(names);
      stores = { drizzle: new DrizzleSessionStore(database.db, { tables }), kysely: new KyselySessionStore(kysely.db, { tableName }) };
    });
    afterAll(async () => {
      if (database === null) return;
      for (const table of [
        tableName,
        `${tableName}_activity`,
        `${tableName}_user_lock`,
        `${tableName}_migration`,
        `${tableName}_migration_lock`,
        `${tableName}_security_event`,
        `${tableName}_rl`,
      ]) {
        await sql`drop table if exists ${sql.table(table)}`.execute(kysely.db);
      }
      await kysely.destroy();
      await database.close();
    });

    it('checkSchema() accepts the tables Kysely made', async (test) => {
      if (database === null) return test.skip('server unreachable');
      await expect(stores.drizzle.checkSchema()).resolves.toBeUndefined();
    });

    it('a session Kysely stored rotates on Drizzle; Kysely then sees the replaced token as reuse', async (test) => {
      if (database === null) return test.skip('server unreachable');
      const session = newSessionFixture();
      await stores.kysely.createSession({ session, maxActiveSessions: 5 });
      expect(await stores.drizzle.findSession(session.id)).toEqual(await stores.kysely.findSession(session.id));
      const rotation = { sessionId: session.id, userId: session.userId, securityStamp: session.securityStamp, now: new Date() };
      const consumed = await stores.drizzle.rotateRefresh({ ...rotation, presentedJti: session.refreshJti, nextJti: randomHex() });
      expect(consumed.status).toBe('consumed');
      expect(await stores.kysely.rotateRefresh({ ...rotation, presentedJti: session.refreshJti, nextJti: randomHex() })).toEqual({
        status: 'reused',
      });
      expect((await stores.drizzle.findSession(session.id))?.expiredAt).not.toBeNull();
    });

    it('concurrent logins split over both stores keep the cap: they take one and the same per-user lock', async (test) => {
      if (database === null) return test.skip('server unreachable');
      // Five users at once, each with twelve logins alternating between the stores: a store
      // that took a lock of its own would let some user end with more than three.
      const base = Date.now();
      const users = Array.from({ length: 5 }, () => {
        const userId = `user-${randomHex(8)}`;
        return Array.from({ length: 12 }, (_, i) => newSessionFixture({ userId, createdAt: new Date(base + i) }));
      });
      await Promise.all(
        users.flatMap((sessions) =>
          sessions.map((session, i) => (i % 2 === 0 ? stores.drizzle : stores.kysely).createSession({ session, maxActiveSessions: 3 })),
        ),
      );
      for (const sessions of users) {
        const active = await stores.kysely.listActiveSessions(sessions[0]!.userId, new Date(base + 100));
        expect(active.map((s) => s.id).sort()).toEqual(
          sessions
            .slice(-3)
            .map((s) => s.id)
            .sort(),
        );
      }
    });
  });
}
