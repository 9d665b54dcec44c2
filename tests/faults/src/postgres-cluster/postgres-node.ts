import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sleep } from '../load.js';
import type { PostgresBinaries } from './postgres-binaries.js';

const run = promisify(execFile);

/** Settings every node gets (appended to postgresql.conf by initdb's node, copied to the standbys by pg_basebackup). */
const BASE_SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'wal_level = replica',
  'max_wal_senders = 10',
  'hot_standby = on',
  // Small: several helpers share the machine.
  'shared_buffers = 32MB',
  'max_connections = 60',
  'wal_keep_size = 128MB',
  // Quiet logs, but the replication warnings (a cancelled synchronous wait) stay.
  'log_min_messages = warning',
  // The cell's replication settings (synchronous_commit, synchronous_standby_names), rewritten per cell.
  "include_if_exists = 'failover-cell.conf'",
];

/**
 * One PostgreSQL server of the test's own: a data directory and a port, the
 * postmaster started directly (not through pg_ctl) in a process group of its own,
 * so that `kill` can SIGKILL the postmaster and every backend at once, as a crash
 * of the machine would (no shutdown checkpoint, no WAL sent after the kill).
 */
export class PostgresNode {
  #child: ChildProcess | null = null;
  readonly output: string[] = [];
  /** Every postmaster this node started (to find the shared memory a SIGKILL leaves behind). */
  readonly postmasterPids: number[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly baseDir: string,
    private readonly binaries: PostgresBinaries,
  ) {}

  get dataDir(): string {
    return join(this.baseDir, this.name);
  }

  /** `postgres://` URL of the node's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get running(): boolean {
    return this.#child !== null && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** A new primary's data directory. */
  async initPrimary(): Promise<void> {
    await this.#tool('initdb', ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions']);
    appendFileSync(join(this.dataDir, 'postgresql.conf'), `\n${BASE_SETTINGS.join('\n')}\n`);
    this.writeCellSettings([]);
  }

  /** The data directory replaced by a fresh base backup of `primary`, ready to start as its standby. */
  async initStandbyOf(primary: PostgresNode): Promise<void> {
    rmSync(this.dataDir, { recursive: true, force: true });
    await this.#tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      this.dataDir,
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
    writeFileSync(join(this.dataDir, 'standby.signal'), '');
    this.#chown(join(this.dataDir, 'standby.signal'));
  }

  /** Rewrites the cell's settings file (read at start, or at `reload`). */
  writeCellSettings(lines: readonly string[]): void {
    const path = join(this.dataDir, 'failover-cell.conf');
    writeFileSync(path, `${lines.join('\n')}\n`);
    this.#chown(path);
  }

  /** Starts the postmaster; a standby streams from `primary` under its own name (its application_name). */
  async start(primary?: PostgresNode): Promise<void> {
    const args = ['-D', this.dataDir, '-c', `port=${this.port}`, '-c', `unix_socket_directories=${this.baseDir}`];
    if (primary !== undefined) {
      args.push('-c', `primary_conninfo=host=127.0.0.1 port=${primary.port} user=postgres application_name=${this.name}`);
    }
    const child = spawn(join(this.binaries.binDir, 'postgres'), args, {
      cwd: this.baseDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.binaries.runAs ?? {}),
      env: { PATH: process.env.PATH ?? '', LANG: 'C' },
    });
    this.#child = child;
    if (child.pid !== undefined) this.postmasterPids.push(child.pid);
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.output.push(...chunk.split('\n').filter((line) => line !== '')));
    }
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited at start:\n${this.output.slice(-10).join('\n')}`);
      try {
        await this.query('select 1');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`${this.name} did not accept connections in 60 s: ${(error as Error).message}`);
        await sleep(100);
      }
    }
  }

  /** SIGKILL of the postmaster and every backend (its process group) at once; waits for the postmaster's exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === null || !this.running || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
    await exited;
  }

  /** One statement on a connection of its own. */
  async query<R extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  #chown(path: string): void {
    const runAs = this.binaries.runAs;
    if (runAs !== undefined) chownSync(path, runAs.uid, runAs.gid);
  }

  async #tool(name: string, args: string[]): Promise<void> {
    try {
      await run(join(this.binaries.binDir, name), args, {
        cwd: this.baseDir,
        ...(this.binaries.runAs ?? {}),
        env: { PATH: process.env.PATH ?? '', LANG: 'C' },
        timeout: 120_000,
      });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`${name} for ${this.name} failed: ${stderr ?? (error as Error).message}`);
    }
  }
}
