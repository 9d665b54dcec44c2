import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { StoreUnavailableError } from '@sessauth/core';
import { newSessionFixture, nextRotation } from '@sessauth/conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrismaRateLimitStore, PrismaSessionStore } from '../src/index.js';
import { PrismaClient } from './.generated/sqlite/client/client.js';

const MIGRATIONS = ['0001_sessauth_init', '0002_sessauth_session_authentication', '0003_sessauth_dpop', '0006_sessauth_device_bound'].map(
  (step) => new URL(`../prisma/sqlite/migrations/${step}/migration.sql`, import.meta.url),
);

// Another process holds SQLite's write lock (here a second connection to the same file, which
// SQLite treats exactly like another process). With the driver's busy wait off (`timeout: 0`, as
// the README advises), the store waits without blocking the event loop, and gives up at its
// deadline.
describe('SQLite: a write lock held by another process', () => {
  let dir: string;
  let file: string;
  let prisma: PrismaClient;
  let other: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sessauth-prisma-busy-'));
    file = join(dir, 'sessions.db');
    other = new Database(file, { timeout: 0 });
    other.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS) other.exec(readFileSync(migration, 'utf8'));
    prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 0 }) });
  });
  afterEach(async () => {
    if (other.inTransaction) other.prepare('rollback').run();
    other.close();
    await prisma.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes wait while the event loop keeps running, and complete once the lock is released', async () => {
    const sessions = new PrismaSessionStore(prisma, { provider: 'sqlite' });
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
      new PrismaRateLimitStore(prisma, { provider: 'sqlite' }).hit('client', 60, new Date()),
    ]);
    loop.disable();
    expect(loop.max / 1e6).toBeLessThan(HELD_MS);
    expect(created.expiredAt).toBeNull();
    expect(rotated.status).toBe('consumed');
    expect(hit.count).toBe(1);
  });

  it('a lock held past the deadline: the call fails with StoreUnavailableError, later calls succeed', async () => {
    const sessions = new PrismaSessionStore(prisma, { provider: 'sqlite', operationTimeoutMs: 300 });
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
