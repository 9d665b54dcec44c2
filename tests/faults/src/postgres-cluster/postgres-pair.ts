import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@sessauth/test-support';
import { sleep } from '../load.js';
import type { PostgresBinaries } from './postgres-binaries.js';
import { PostgresNode } from './postgres-node.js';

const run = promisify(execFile);

/** How the primary replicates: what a cell of the failover table measures. */
export interface ReplicationSettings {
  readonly label: string;
  readonly synchronousCommit: 'off' | 'on' | 'remote_apply';
  /** `synchronous_standby_names` names both nodes (the one that is the standby is then synchronous); else empty (asynchronous). */
  readonly synchronousStandby: boolean;
}

const NODE_NAMES = ['node_a', 'node_b'] as const;

/**
 * A primary and one streaming standby on this machine, on free ports, in a
 * temporary directory; the roles swap at each failover (the standby is promoted,
 * the dead primary's directory becomes a fresh base backup of the new primary).
 */
export class PostgresPair {
  #primary: PostgresNode;
  #standby: PostgresNode;
  #settings: ReplicationSettings | null = null;

  private constructor(
    private readonly baseDir: string,
    readonly nodes: readonly [PostgresNode, PostgresNode],
  ) {
    [this.#primary, this.#standby] = nodes;
  }

  static async start(binaries: PostgresBinaries): Promise<PostgresPair> {
    const baseDir = mkdtempSync(join(tmpdir(), 'sessauth-pg-failover-'));
    if (binaries.runAs !== undefined) chownSync(baseDir, binaries.runAs.uid, binaries.runAs.gid);
    const [portA, portB] = [await freePort(), await freePort()];
    const pair = new PostgresPair(baseDir, [
      new PostgresNode(NODE_NAMES[0], portA, baseDir, binaries),
      new PostgresNode(NODE_NAMES[1], portB, baseDir, binaries),
    ]);
    try {
      await pair.#primary.initPrimary();
      await pair.#primary.start();
      await pair.#standby.initStandbyOf(pair.#primary);
      await pair.#standby.start(pair.#primary);
      await pair.waitStreaming();
    } catch (error) {
      await pair.close();
      throw error;
    }
    return pair;
  }

  get primary(): PostgresNode {
    return this.#primary;
  }

  get standby(): PostgresNode {
    return this.#standby;
  }

  /** libpq's multi-host URL over both nodes: the store connects only to the writable one. */
  get url(): string {
    const [a, b] = this.nodes;
    return `postgres://postgres@127.0.0.1:${a.port},127.0.0.1:${b.port}/postgres?target_session_attrs=read-write`;
  }

  /** Applies a cell's settings to both nodes (a reload), and waits until the standby streams (synchronously if asked). */
  async configure(settings: ReplicationSettings): Promise<void> {
    this.#settings = settings;
    const lines = [
      `synchronous_commit = ${settings.synchronousCommit}`,
      `synchronous_standby_names = '${settings.synchronousStandby ? `FIRST 1 (${NODE_NAMES.join(', ')})` : ''}'`,
    ];
    for (const node of this.nodes) {
      node.writeCellSettings(lines);
      if (node.running) await node.query('select pg_reload_conf()');
    }
    await this.waitStreaming();
  }

  /** The primary's crash: SIGKILL of all its processes. */
  async killPrimary(): Promise<void> {
    await this.#primary.kill();
  }

  /** Promotes the standby (`pg_promote`, as `pg_ctl promote`, waiting until it takes writes); the roles swap. */
  async promoteStandby(): Promise<void> {
    const [row] = await this.#standby.query<{ promoted: boolean }>('select pg_promote(true, 60) as promoted');
    if (row?.promoted !== true) throw new Error(`${this.#standby.name} was not promoted within 60 s`);
    [this.#primary, this.#standby] = [this.#standby, this.#primary];
  }

  /** The dead old primary comes back as a fresh standby of the new one (pg_basebackup), and streams. */
  async rebuildStandby(): Promise<void> {
    await this.#standby.kill();
    await this.#standby.initStandbyOf(this.#primary);
    await this.#standby.start(this.#primary);
    await this.waitStreaming();
  }

  /** Stops the standby (as a crash): with a synchronous standby named, the primary's commits now wait. */
  async killStandby(): Promise<void> {
    await this.#standby.kill();
  }

  /** Starts the killed standby again (its data directory is intact) and waits until it streams. */
  async restartStandby(): Promise<void> {
    await this.#standby.start(this.#primary);
    await this.waitStreaming();
  }

  /** Until the primary reports the standby streaming (and `sync` when a synchronous standby is named). */
  async waitStreaming(): Promise<void> {
    const wantSync = this.#settings?.synchronousStandby === true;
    const deadline = Date.now() + 60_000;
    let last = 'no row';
    while (Date.now() < deadline) {
      const rows = await this.#primary.query<{ state: string; sync_state: string }>(
        'select state, sync_state from pg_stat_replication where application_name = $1',
        [this.#standby.name],
      );
      const row = rows[0];
      if (row !== undefined && row.state === 'streaming' && (!wantSync || row.sync_state === 'sync')) return;
      last = row === undefined ? 'no row' : `${row.state}/${row.sync_state}`;
      await sleep(100);
    }
    throw new Error(`${this.#standby.name} does not stream from ${this.#primary.name} after 60 s (${last})`);
  }

  /** Kills both servers and removes their directories. */
  async close(): Promise<void> {
    for (const node of this.nodes) await node.kill();
    rmSync(this.baseDir, { recursive: true, force: true });
    await removeLeftSharedMemory(new Set(this.nodes.flatMap((node) => node.postmasterPids)));
  }
}

/**
 * A postmaster killed with SIGKILL leaves its small System V segment (its data
 * directory, rebuilt, never claims it again): removed here, only the segments our
 * own postmasters created (`ipcs -m -p`: shmid, owner, creator pid).
 */
async function removeLeftSharedMemory(pids: ReadonlySet<number>): Promise<void> {
  try {
    const { stdout } = await run('ipcs', ['-m', '-p']);
    for (const line of stdout.split('\n')) {
      const [shmid, , cpid] = line.trim().split(/\s+/);
      if (shmid !== undefined && /^\d+$/.test(shmid) && pids.has(Number(cpid))) await run('ipcrm', ['-m', shmid]).catch(() => undefined);
    }
  } catch {
    // No ipcs here: the segments stay (56 bytes each), harmless.
  }
}
