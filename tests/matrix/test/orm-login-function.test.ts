import { randomBytes } from 'node:crypto';
import { newSessionFixture, reachService } from '@sessauth/conformance';
import type { NewSession } from '@sessauth/core/store';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type OrmPgOptions, type OrmPgStores, ormPgStores } from '../src/orm-stores.js';

// Issue 24 point 3 on the ORM stores: on PostgreSQL a login is one statement calling the login
// function (Prisma's migration 0007, Drizzle's custom migration), and without it, or where the
// connections default to REPEATABLE READ, the store's transaction. Every form takes the same
// advisory lock, so a login of one form waits for another form's uncommitted login and then counts
// its row. Each case holds the lock from a plain connection, the way the other form would, and
// shows the store waiting on it (pg_stat_activity) before it is released.

const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const MINUTE = 60_000;

/** True once a connection of `applicationName` waits on an advisory lock. */
async function waitsForAdvisoryLock(applicationName: string): Promise<boolean> {
  const observer = new pg.Client(POSTGRES_URL);
  await observer.connect();
  try {
    for (let waited = 0; waited < 4_000; waited += 20) {
      const { rows } = await observer.query<{ waiting: string }>(
        `select count(*) as waiting from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock' and wait_event = 'advisory'`,
        [applicationName],
      );
      if (Number(rows[0]?.waiting) > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  } finally {
    await observer.end();
  }
}

/** A login's row written as another store would, inside the holder's open transaction. */
async function insertRaw(client: pg.Client, table: string, session: NewSession): Promise<void> {
  const at = session.createdAt.getTime();
  await client.query(
    `insert into ${table} ("id", "user_id", "refresh_jti", "security_stamp", "created_at", "last_activity_at", "expires_at") values ($1, $2, $3, $4, $5, $5, $6)`,
    [session.id, session.userId, session.refreshJti, session.securityStamp, at, session.expiresAt.getTime()],
  );
}

/** Four logins of one user, a millisecond apart, oldest first. */
function logins(userId: string, base: number): [NewSession, NewSession, NewSession, NewSession] {
  return [0, 1, 2, 3].map((i) => newSessionFixture({ userId, createdAt: new Date(base + i) })) as [NewSession, NewSession, NewSession, NewSession];
}

/** Which connections a case gives the store, and whether the function exists. */
const CASES: ReadonlyArray<{ readonly title: string; readonly options: (applicationName: string) => OrmPgOptions }> = [
  { title: 'one statement through the login function', options: (application_name) => ({ connection: { application_name } }) },
  {
    title: 'without the function, the transaction',
    options: (application_name) => ({ loginFunction: false, connection: { application_name } }),
  },
  {
    // The function refuses (SA001) and the transaction asks for READ COMMITTED: at REPEATABLE READ
    // its read after the lock would see the snapshot taken before it and leave three active.
    title: 'connections defaulting to REPEATABLE READ: the function refuses and the transaction reads at READ COMMITTED',
    options: (application_name) => ({ connection: { application_name, options: '-c default_transaction_isolation=repeatable\\ read' } }),
  },
];

for (const orm of ['prisma', 'drizzle'] as const) {
  describe(`${orm} on PostgreSQL: a login waits for another login of the user and keeps the cap`, () => {
    for (const { title, options } of CASES) {
      it(title, async (test) => {
        const applicationName = `sessauth-orm-login-${randomBytes(4).toString('hex')}`;
        const stores: OrmPgStores | null = await reachService('PostgreSQL 127.0.0.1:5432', () =>
          ormPgStores(orm, POSTGRES_URL, options(applicationName)),
        );
        if (stores === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
        const holder = new pg.Client(POSTGRES_URL);
        await holder.connect();
        try {
          const userId = `orm-login-${randomBytes(4).toString('hex')}`;
          const base = Date.now();
          const [first, second, third, fourth] = logins(userId, base);
          for (const session of [first, second]) await stores.store.createSession({ session, maxActiveSessions: 2 });
          // Another login holds the user's lock with its row not yet committed.
          await holder.query('begin isolation level read committed');
          await holder.query('select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1::text, 0))', [
            `${stores.sessionTableName}:${userId}`,
          ]);
          await insertRaw(holder, stores.sessionTable, third);
          const login = stores.store.createSession({ session: fourth, maxActiveSessions: 2 });
          expect(await waitsForAdvisoryLock(applicationName)).toBe(true);
          await holder.query('commit');
          await login;
          const active = await stores.store.listActiveSessions(userId, new Date(base + MINUTE));
          expect(active.map((session) => session.id)).toEqual([fourth.id, third.id]);
        } finally {
          await holder.end();
          await stores.close();
        }
      });
    }
  });
}
