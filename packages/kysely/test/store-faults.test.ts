import { createServer, type Server, type Socket } from 'node:net';
import { SessauthError, StoreUnavailableError, type SessionStore } from '@sessauth/core';
import { newSessionFixture } from '@sessauth/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyRateLimitStore, KyselySessionStore } from '../src/index.js';
import { openKyselyFromUrl, type OpenedDatabase } from '../src/open-from-url.js';
import { sqliteTarget } from './support/test-databases.js';

function activityEntry(session: { id: string; userId: string }, now: Date) {
  return {
    id: `a${now.getTime()}`,
    sessionId: session.id,
    userId: session.userId,
    kind: 'created' as const,
    at: now,
    expiresAt: now,
    ipAddress: null,
    browser: null,
    location: null,
    detail: null,
  };
}

/** Every public method of the port, called with harmless arguments. */
function everyCall(store: StoreUnderFault): Array<[string, () => Promise<unknown>]> {
  const now = new Date();
  const session = newSessionFixture();
  const rotation = { sessionId: session.id, userId: session.userId, presentedJti: 'a', nextJti: 'b', securityStamp: 's', now };
  return [
    ['findSession', () => store.findSession(session.id)],
    ['createSession', () => store.createSession({ session, maxActiveSessions: 3 })],
    ['listActiveSessions', () => store.listActiveSessions(session.userId, now)],
    ['rotateRefresh', () => store.rotateRefresh(rotation)],
    ['expireSession', () => store.expireSession(session.id, session.userId, now)],
    ['expireAllForUser', () => store.expireAllForUser(session.userId, now)],
    ['touchSession', () => store.touchSession(session.id, now)],
    ['purgeExpired', () => store.purgeExpired(now)],
    ['listSessionsForAdmin', () => store.listSessionsForAdmin({ now, limit: 10 })],
    // The activity history (the `activity` option).
    ...(store.appendActivity === undefined
      ? []
      : [
          ['appendActivity', () => store.appendActivity?.({ entries: [activityEntry(session, now)], maxEntriesPerSession: 5 })] as [
            string,
            () => Promise<unknown>,
          ],
          ['listActivity', () => store.listActivity?.({ userId: session.userId, sessionIds: [session.id], now })] as [string, () => Promise<unknown>],
        ]),
    // The Shared Signals outbox fails closed like every other call.
    [
      'holdSecurityEvents',
      () => store.holdSecurityEvents([{ id: 'e', batchId: 'b', streamId: 's', token: 't', userId: 'u', sessionId: null, createdAt: now }], now),
    ],
    ['releaseSecurityEvents', () => store.releaseSecurityEvents('b', true, now)],
    ['claimSecurityEvents', () => store.claimSecurityEvents(now, now, 10)],
    ['settleSecurityEvent', () => store.settleSecurityEvent('e', { kind: 'remove' })],
    // The batched read (PostgreSQL, MySQL; SQLite has none).
    ...(store.findSessions === undefined
      ? []
      : [['findSessions', () => store.findSessions?.([session.id, 'x'])] as [string, () => Promise<unknown>]]),
  ];
}

/** Every method of the port; `findSessions` only where the dialect has it. */
type StoreUnderFault = Required<Omit<SessionStore, 'findSessions' | 'appendActivity' | 'listActivity'>> &
  Pick<SessionStore, 'findSessions' | 'appendActivity' | 'listActivity'>;

async function expectEveryCallUnavailable(store: StoreUnderFault): Promise<void> {
  for (const [name, call] of everyCall(store)) {
    await expect(call(), name).rejects.toBeInstanceOf(StoreUnavailableError);
  }
}

describe('a store whose database is unreachable fails closed with StoreUnavailableError', () => {
  // Accepts TCP connections and never answers: the "hung database" case.
  let silent: Server;
  const sockets = new Set<Socket>();
  let silentPort = 0;
  const opened: OpenedDatabase[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy().catch(() => undefined)));
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
  const open = async (url: string) => {
    const database = await openKyselyFromUrl(url, { poolSize: 2, connectTimeoutMs: 500 });
    opened.push(database);
    return database;
  };

  it('PostgreSQL on a closed port (127.0.0.1:1): every method rejects', async () => {
    const { db } = await open('postgres://postgres@127.0.0.1:1/test');
    await expectEveryCallUnavailable(new KyselySessionStore(db, { activity: true }));
    await expect(new KyselyRateLimitStore(db).hit('k', 60, new Date())).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 15_000);

  it('MySQL on a closed port (127.0.0.1:1): every method rejects', async () => {
    const { db } = await open('mysql://root@127.0.0.1:1/test');
    await expectEveryCallUnavailable(new KyselySessionStore(db, { activity: true }));
  }, 15_000);

  it('PostgreSQL that accepts but never answers: the connect timeout ends the wait', async () => {
    const { db } = await open(`postgres://postgres@127.0.0.1:${silentPort}/test`);
    await expect(new KyselySessionStore(db).findSession('x')).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 10_000);

  it('MySQL that accepts but never answers: the connect timeout ends the wait', async () => {
    const { db } = await open(`mysql://root@127.0.0.1:${silentPort}/test`);
    await expect(new KyselySessionStore(db).findSession('x')).rejects.toBeInstanceOf(StoreUnavailableError);
  }, 10_000);

  for (const scheme of ['postgres://postgres', 'mysql://root']) {
    it(`${scheme.split(':')[0]} direct reads (the guard read below kysely): a closed port and a silent server reject`, async () => {
      for (const port of [1, silentPort]) {
        const { db, directReads } = await open(`${scheme}@127.0.0.1:${port}/test`);
        expect(directReads, 'openKyselyFromUrl hands out the direct path').toBeDefined();
        await expect(new KyselySessionStore(db, { directReads }).findSession('x')).rejects.toBeInstanceOf(StoreUnavailableError);
      }
    }, 15_000);

    it(`${scheme.split(':')[0]} direct reads: a call that outlives operationTimeoutMs rejects at its deadline`, async () => {
      const database = await openKyselyFromUrl(`${scheme}@127.0.0.1:${silentPort}/test`, { poolSize: 1, connectTimeoutMs: 10_000 });
      opened.push(database);
      const store = new KyselySessionStore(database.db, { directReads: database.directReads, operationTimeoutMs: 300 });
      const started = Date.now();
      const error = await store.findSession('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toBe('@sessauth/kysely: findSession timed out after 300 ms');
      expect(Date.now() - started).toBeLessThan(5000);
    }, 15_000);
  }

  it('tables that were never migrated: every method rejects', async () => {
    const database = await sqliteTarget.open();
    try {
      await expectEveryCallUnavailable(new KyselySessionStore(database?.db ?? never(), { tableName: 'not_migrated' }));
    } finally {
      await database?.close();
    }
  });

  it('a database closed under the store: rejects instead of hanging', async () => {
    const database = await openKyselyFromUrl('sqlite::memory:');
    const store = new KyselySessionStore(database.db);
    await database.destroy();
    await expect(store.findSession('x')).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('the error says which operation failed and keeps the driver error as its cause', async () => {
    const { db } = await open('postgres://postgres@127.0.0.1:1/test');
    const error = await new KyselySessionStore(db).findSession('some-session-id').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('service_unavailable');
    expect((error as Error).message).toBe('@sessauth/kysely: findSession failed');
    expect((error as Error).cause).toBeInstanceOf(Error);
  }, 10_000);
});

describe('client input is not a store fault', () => {
  it('a malformed admin cursor is 400 invalid_request, not 503', async () => {
    const database = await sqliteTarget.open();
    try {
      const store = new KyselySessionStore(database?.db ?? never(), { tableName: database?.tableName });
      const error = await store.listSessionsForAdmin({ now: new Date(), limit: 5, after: 'not a cursor!' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessauthError);
      expect(error).not.toBeInstanceOf(StoreUnavailableError);
      expect((error as SessauthError).code).toBe('invalid_request');
    } finally {
      await database?.close();
    }
  });
});

function never(): never {
  throw new Error('SQLite test database could not be opened');
}
