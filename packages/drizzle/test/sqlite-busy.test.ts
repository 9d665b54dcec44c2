import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { StoreUnavailableError } from '@sessauth/core';
import { newSessionFixture, nextRotation } from '@sessauth/conformance';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DrizzleRateLimitStore, DrizzleSessionStore } from '../src/index.js';
import { sessauthSqliteTables } from '../src/sqlite/schema.js';
import { drizzleKitDdl } from './support/drizzle-kit-ddl.js';

// Another process holds SQLite's write lock (here a second connection to the same file, which
// SQLite treats exactly like another process). With the driver's busy wait off (`timeout: 0`,
// as the README advises), the store waits without blocking the event loop, and gives up at its
// deadline.
describe('SQLite: a write lock held by another process', () => {
  let dir: string;
  let database: Database.Database;
  let other: Database.Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sessauth-drizzle-busy-'));
    const file = join(dir, 'sessions.db');
    database = new Database(file, { timeout: 0 });
    database.pragma('journal_mode = WAL');
    for (const statement of await drizzleKitDdl('sqlite', sessauthSqliteTables())) database.exec(statement);
    other = new Database(file, { timeout: 0 });
  });
  afterEach(() => {
    if (other.inTransaction) other.prepare('rollback').run();
    other.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes wait while the event loop keeps running, and complete once the lock is released', async () => {
    const sessions = new DrizzleSessionStore(drizzle(database));
    const session = newSessionFixture();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    other.prepare('begin immediate').run();
    // Only this event loop can release the lock: a busy wait in the driver would block it.
    const HELD_MS = 600;
    setTimeout(() => other.prepare('commit').run(), HELD_MS);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const [created, rotated, hit] = await Promise.all([
      sessions.createSession({ session: newSessionFixture(), maxActiveSessions: 5 }),
      sessions.rotateRefresh(nextRotation(session)),
      new DrizzleRateLimitStore(drizzle(database)).hit('client', 60, new Date()),
    ]);
    loop.disable();
    expect(loop.max / 1e6).toBeLessThan(HELD_MS);
    expect(created.expiredAt).toBeNull();
    expect(rotated.status).toBe('consumed');
    expect(hit.count).toBe(1);
  });

  it('reads are served while the lock is held (WAL)', async () => {
    const sessions = new DrizzleSessionStore(drizzle(database));
    const session = newSessionFixture();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    other.prepare('begin immediate').run();
    expect((await sessions.findSession(session.id))?.id).toBe(session.id);
    expect(await sessions.listActiveSessions(session.userId, new Date())).toHaveLength(1);
  });

  it('a lock held past the deadline: the call fails with StoreUnavailableError, later calls succeed', async () => {
    const sessions = new DrizzleSessionStore(drizzle(database), { operationTimeoutMs: 300 });
    const session = newSessionFixture();
    other.prepare('begin immediate').run();
    const error = await sessions.createSession({ session, maxActiveSessions: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    other.prepare('rollback').run();
    expect(await sessions.findSession(session.id)).toBeNull();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    expect((await sessions.findSession(session.id))?.id).toBe(session.id);
  });
});
