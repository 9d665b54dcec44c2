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

/** The statement a connection of `applicationName` waits on an advisory lock with, once one does (null: none within 4 s). */
async function waitingOnAdvisoryLock(applicationName: string): Promise<string | null> {
  const observer = new pg.Client(POSTGRES_URL);
  await observer.connect();
  try {
    for (let waited = 0; waited < 4_000; waited += 20) {
      const { rows } = await observer.query<{ query: string }>(
        // A backend can be seen waiting before its query text is reported (CI saw ''): ask again then.
        `select query from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock' and wait_event = 'advisory' and query <> ''`,
        [applicationName],
      );
      if (rows[0] !== undefined) return rows[0].query;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return null;
  } finally {
    await observer.end();
  }
}

/** Holds `userId`'s login lock from a connection of its own, in an open transaction, as another login would. */
async function holdLoginLock(stores: OrmPgStores, userId: string): Promise<pg.Client> {
  const holder = new pg.Client(POSTGRES_URL);
  await holder.connect();
  await holder.query('begin isolation level read committed');
  await holder.query('select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1::text, 0))', [`${stores.sessionTableName}:${userId}`]);
  return holder;
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

/** Which connections a case gives the store, whether the function exists, and which form runs. */
const CASES: ReadonlyArray<{
  readonly title: string;
  readonly options: (applicationName: string) => OrmPgOptions;
  readonly form: 'function' | 'transaction';
}> = [
  { title: 'one statement through the login function', options: (application_name) => ({ connection: { application_name } }), form: 'function' },
  {
    title: 'without the function, the transaction',
    options: (application_name) => ({ loginFunction: false, connection: { application_name } }),
    form: 'transaction',
  },
  {
    // The function refuses (SA001) and the transaction asks for READ COMMITTED: at REPEATABLE READ
    // its read after the lock would see the snapshot taken before it and leave three active.
    title: 'connections defaulting to REPEATABLE READ: the function refuses and the transaction reads at READ COMMITTED',
    options: (application_name) => ({ connection: { application_name, options: '-c default_transaction_isolation=repeatable\\ read' } }),
    form: 'transaction',
  },
];

for (const orm of ['prisma', 'drizzle'] as const) {
  describe(`${orm} on PostgreSQL: a login waits for another login of the user and keeps the cap`, () => {
    for (const { title, options, form } of CASES) {
      it(title, async (test) => {
        const applicationName = `sessauth-orm-login-${randomBytes(4).toString('hex')}`;
        const stores: OrmPgStores | null = await reachService('PostgreSQL 127.0.0.1:5432', () =>
          ormPgStores(orm, POSTGRES_URL, options(applicationName)),
        );
        if (stores === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
        let holder: pg.Client | null = null;
        try {
          const userId = `orm-login-${randomBytes(4).toString('hex')}`;
          const base = Date.now();
          const [first, second, third, fourth] = logins(userId, base);
          for (const session of [first, second]) await stores.store.createSession({ session, maxActiveSessions: 2 });
          // Another login holds the user's lock with its row not yet committed.
          holder = await holdLoginLock(stores, userId);
          await insertRaw(holder, stores.sessionTable, third);
          const login = stores.store.createSession({ session: fourth, maxActiveSessions: 2 });
          const waiting = await waitingOnAdvisoryLock(applicationName);
          expect(waiting).not.toBeNull();
          // The form that waits: the one statement names the function, the transaction's lock does not.
          expect(waiting?.includes('_evict_beyond_cap')).toBe(form === 'function');
          await holder.query('commit');
          await login;
          const active = await stores.store.listActiveSessions(userId, new Date(base + MINUTE));
          expect(active.map((session) => session.id)).toEqual([fourth.id, third.id]);
        } finally {
          await holder?.end();
          await stores.close();
        }
      });
    }
  });
}

for (const orm of ['prisma', 'drizzle'] as const) {
  describe(`${orm} on PostgreSQL: the one-statement login's failures`, () => {
    // Before, the ORM's interactive transaction ended with the call's deadline; the one statement
    // sets lock_timeout to it, so a login answered with 503 while it waited does not commit later
    // (a session nobody holds tokens for, evicting one the user does).
    it('waits for the lock no longer than operationTimeoutMs, and does not commit after its 503', async (test) => {
      const applicationName = `sessauth-orm-login-${randomBytes(4).toString('hex')}`;
      const stores = await reachService('PostgreSQL 127.0.0.1:5432', () =>
        ormPgStores(orm, POSTGRES_URL, { connection: { application_name: applicationName }, operationTimeoutMs: 400 }),
      );
      if (stores === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
      let holder: pg.Client | null = null;
      try {
        const userId = `orm-deadline-${randomBytes(4).toString('hex')}`;
        const [late] = logins(userId, Date.now());
        holder = await holdLoginLock(stores, userId);
        const login = stores.store.createSession({ session: late, maxActiveSessions: 2 });
        expect(await waitingOnAdvisoryLock(applicationName)).toContain('_evict_beyond_cap');
        await expect(login).rejects.toMatchObject({ name: 'StoreUnavailableError' });
        // Well past the statement's lock_timeout: the statement has given up, so releasing the
        // lock lets nothing in.
        await new Promise((resolve) => setTimeout(resolve, 600));
        await holder.query('commit');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await stores.store.findSession(late.id)).toBeNull();
      } finally {
        await holder?.end();
        await stores.close();
      }
    });

    // Only a missing function sends the store to its transaction for good: an undefined_function
    // raised inside the function (a column type a host changed, say) is that login's 503.
    it('an undefined_function raised inside the function is a 503, and the next login still calls the function', async (test) => {
      const applicationName = `sessauth-orm-login-${randomBytes(4).toString('hex')}`;
      const stores = await reachService('PostgreSQL 127.0.0.1:5432', () =>
        ormPgStores(orm, POSTGRES_URL, { connection: { application_name: applicationName } }),
      );
      if (stores === null) return test.skip('PostgreSQL unreachable (named in the skip line above)');
      const admin = new pg.Client(POSTGRES_URL);
      await admin.connect();
      let holder: pg.Client | null = null;
      try {
        const { rows } = await admin.query<{ definition: string }>(
          `select pg_catalog.pg_get_functiondef(${literal(stores.loginFunction)}::regproc) as definition`,
        );
        const definition = rows[0]?.definition ?? '';
        expect(definition).toContain('SA002');
        // The same name, arguments and argument names (create or replace keeps them), another body.
        await admin.query(
          `create or replace function ${stores.loginFunction}(p_lock_key text, p_user_id text, p_newcomer_id text, p_now bigint, p_cap integer, p_table regclass, p_lock_wait_ms integer)
           returns boolean language plpgsql as $$ begin raise exception 'inside' using errcode = '42883'; end $$`,
        );
        const userId = `orm-inside-${randomBytes(4).toString('hex')}`;
        const [broken, next] = logins(userId, Date.now());
        await expect(stores.store.createSession({ session: broken, maxActiveSessions: 2 })).rejects.toMatchObject({ name: 'StoreUnavailableError' });
        await admin.query(definition);
        holder = await holdLoginLock(stores, userId);
        const login = stores.store.createSession({ session: next, maxActiveSessions: 2 });
        expect(await waitingOnAdvisoryLock(applicationName)).toContain('_evict_beyond_cap');
        await holder.query('commit');
        await login;
        expect((await stores.store.findSession(next.id))?.id).toBe(next.id);
      } finally {
        await holder?.end();
        await admin.end();
        await stores.close();
      }
    });
  });
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
