import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fault } from '../scenario.js';
import { HOLD_MS, SQL_DEADLINE_MS } from '../timing.js';
import type { StoreUnderFault } from './store-under-fault.js';

/** Root ignores file permissions: the servers then run as `nobody`, who owns the database's directory. */
const NOBODY = { uid: 65_534, gid: 65_534 };

/**
 * SQLite: a database file in a directory of its own. Its faults are the
 * filesystem's and the lock's: the directory (and the files) made read-only, and
 * another process holding the write lock, for less and for more than the deadline.
 */
export async function sqliteUnderFault(): Promise<StoreUnderFault> {
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-faults-sqlite-'));
  const file = join(dir, 'sessauth.db');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, NOBODY.uid, NOBODY.gid);
  return {
    label: 'SQLite',
    storeUrl: `sqlite:${file}`,
    deadlineMs: SQL_DEADLINE_MS,
    runAs: asRoot ? NOBODY : undefined,
    faults: [
      {
        name: 'the database directory and its files made read-only',
        holdMs: HOLD_MS,
        inject: async () => setReadOnly(dir, true),
        heal: async () => setReadOnly(dir, false),
      },
      writeLockFault(file, 3000),
      writeLockFault(file, SQL_DEADLINE_MS + 2000),
    ],
    async close() {
      if (existsSync(dir)) setReadOnly(dir, false);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function setReadOnly(dir: string, readOnly: boolean): void {
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), readOnly ? 0o444 : 0o644);
  chmodSync(dir, readOnly ? 0o555 : 0o755);
}

/** SQLITE_BUSY for the servers: another process takes the write lock (BEGIN IMMEDIATE) and holds it. */
function writeLockFault(file: string, holdMs: number): Fault {
  let holder: ChildProcess | null = null;
  return {
    name: `SQLITE_BUSY: another process holds the write lock for ${holdMs / 1000} s`,
    holdMs,
    async inject() {
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const db = new (require('better-sqlite3'))(${JSON.stringify(file)}, { timeout: 10000 });
           db.prepare('begin immediate').run();
           process.stdout.write('locked\\n');
           process.stdin.once('data', () => { db.prepare('commit').run(); db.close(); process.exit(0); });`,
        ],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['pipe', 'pipe', 'inherit'] },
      );
      holder = child;
      await new Promise<void>((resolve, reject) => {
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
      });
    },
    async heal() {
      const child = holder;
      holder = null;
      if (child === null || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.write('release\n');
      await exited;
    },
  };
}
