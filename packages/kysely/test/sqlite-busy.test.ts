import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { StoreUnavailableError } from '@sessauth/core';
import { newSessionFixture, nextRotation } from '@sessauth/conformance';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselyRateLimitStore, KyselySessionStore, migrateToLatest, openKyselyFromUrl, type OpenedDatabase } from '../src/index.js';
import { MIGRATION_COLUMNS } from '../src/migrations/migration-columns.js';

// Another process holds SQLite's write lock (here: a second connection to the
// same file, which SQLite treats exactly like another process). The store waits
// without blocking the event loop, and gives up at its deadline.
describe('SQLite: a write lock held by another process', () => {
  let dir: string;
  let file: string;
  let opened: OpenedDatabase;
  let other: Database.Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sessauth-busy-'));
    file = join(dir, 'sessions.db');
    opened = await openKyselyFromUrl(`sqlite:${file}`);
    await migrateToLatest(opened.db);
    other = new Database(file, { timeout: 0 });
  });
  afterEach(async () => {
    if (other.inTransaction) other.prepare('rollback').run();
    other.close();
    await opened.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const store = (operationTimeoutMs?: number) => new KyselySessionStore(opened.db, { directReads: opened.directReads, operationTimeoutMs });

  it('writes wait while the event loop keeps running, and complete once the lock is released', async () => {
    const sessions = store();
    const session = newSessionFixture();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    other.prepare('begin immediate').run();
    // Only this event loop can release the lock: a busy wait in the driver would
    // block it (and every request of the process) until the driver gave up.
    const HELD_MS = 600;
    setTimeout(() => other.prepare('commit').run(), HELD_MS);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const [created, rotated, hit] = await Promise.all([
      sessions.createSession({ session: newSessionFixture(), maxActiveSessions: 5 }),
      sessions.rotateRefresh(nextRotation(session)),
      new KyselyRateLimitStore(opened.db).hit('client', 60, new Date()),
    ]);
    loop.disable();
    expect(loop.max / 1e6).toBeLessThan(HELD_MS);
    expect(created.expiredAt).toBeNull();
    expect(rotated.status).toBe('consumed');
    expect(hit.count).toBe(1);
  });

  it('reads are served while the lock is held (WAL)', async () => {
    const sessions = store();
    const session = newSessionFixture();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    other.prepare('begin immediate').run();
    expect((await sessions.findSession(session.id))?.id).toBe(session.id);
    expect(await sessions.listActiveSessions(session.userId, new Date())).toHaveLength(1);
  });

  it('a lock held past the deadline: the call fails with StoreUnavailableError, later calls succeed', async () => {
    const sessions = store(300);
    const session = newSessionFixture();
    other.prepare('begin immediate').run();
    const error = await sessions.createSession({ session, maxActiveSessions: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(((error as Error).cause as { code?: string } | undefined)?.code ?? (error as Error).message).toMatch(/SQLITE_BUSY|timed out/);
    other.prepare('rollback').run();
    expect(await sessions.findSession(session.id)).toBeNull();
    await sessions.createSession({ session, maxActiveSessions: 5 });
    expect((await sessions.findSession(session.id))?.id).toBe(session.id);
  });

  it('migrateToLatest waits for a lock held by another process at start-up instead of failing', async () => {
    // A WAL database without our tables yet, locked by another process.
    const path = join(dir, 'starting.db');
    // A real second process: in this one, the driver's busy wait during the
    // migration would block the timer that releases the lock.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(path)});
         db.pragma('journal_mode = WAL');
         db.prepare('begin immediate').run();
         console.log('locked');
         setTimeout(() => { db.prepare('commit').run(); db.close(); }, 300);`,
      ],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const starting = await openKyselyFromUrl(`sqlite:${path}`);
    try {
      // Every migration applied, none failed on the held lock.
      expect((await migrateToLatest(starting.db)).applied).toEqual(Object.keys(MIGRATION_COLUMNS));
    } finally {
      await starting.destroy();
      await new Promise((resolve) => (holder.exitCode === null ? holder.once('exit', resolve) : resolve(null)));
    }
  });
});
