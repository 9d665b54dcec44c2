import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, stopProcess } from '@sessauth/test-support';
import { Redis } from 'ioredis';
import { sleep } from '../load.js';
import { killedOnExit } from './killed-on-exit.js';
import { startPartitionSwitchboard } from './partition-switchboard.js';
import { REDIS_SERVER } from '../stores/redis-server.js';
import type { ReplicationSettings } from './replicated-redis.js';

const run = promisify(execFile);
export const REDIS_CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';

/** How long a cluster node may be silent before the others mark it failed (its replica then takes over). */
export const CLUSTER_NODE_TIMEOUT_MS = 2500;

export interface ClusterNodeProcess {
  readonly index: number;
  /** The node's own loopback address (each node has one, so that the switchboard can tell them apart). */
  readonly host: string;
  /** The port it listens on (the application's way in). */
  readonly port: number;
  /** The port of its relay on the switchboard, which it announces (the other nodes' way in). */
  readonly announcedPort: number;
  running(): boolean;
}

/** A Redis Cluster of three primaries and three replicas, on free loopback ports, in a temp directory. */
export interface RedisClusterGroup {
  readonly nodes: readonly ClusterNodeProcess[];
  readonly seeds: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  /** Maps each announced (relay) address to the node's own, for the application's client. */
  readonly natMap: Record<string, { host: string; port: number }>;
  /** The nodes that own slots now (as the nodes other than `besides` see it). */
  primaries(besides?: ClusterNodeProcess): Promise<ClusterNodeProcess[]>;
  /** Cuts the node off from every other node (gossip and replication), not from the application. */
  isolate(node: ClusterNodeProcess): Promise<void>;
  /** Ends the partition. */
  heal(): Promise<void>;
  kill(node: ClusterNodeProcess): Promise<void>;
  /** Starts a killed node again on its own nodes.conf: it rejoins as a replica of the one that took over. */
  restart(node: ClusterNodeProcess): Promise<void>;
  /**
   * Waits until `old` owns no slot and every slot is served again, as the other nodes see it
   * (a partitioned `old` still believes it is primary, and its own cluster_state is fail).
   */
  awaitFailover(old: ClusterNodeProcess, timeoutMs?: number): Promise<void>;
  /** Waits until all six run, three primaries own every slot, and each has a replica with the link up. */
  awaitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

interface NodeLine {
  readonly port: number;
  readonly flags: readonly string[];
  readonly hasSlots: boolean;
  readonly masterId: string;
  readonly id: string;
  readonly connected: boolean;
}

export async function startRedisClusterGroup(settings: ReplicationSettings): Promise<RedisClusterGroup> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} not found (apt-get install redis-server)`);
  if (!existsSync(REDIS_CLI)) throw new Error(`${REDIS_CLI} not found (apt-get install redis-tools)`);
  const root = mkdtempSync(join(tmpdir(), 'sessauth-failover-cluster-'));
  const children = new Map<number, ChildProcess>();
  const nodes: Array<ClusterNodeProcess & { readonly conf: string }> = [];
  const switchboard = startPartitionSwitchboard();
  // 127.26.<random>.<node>: Linux routes all of 127/8 to the loopback; a random third byte keeps
  // two groups started at once (another run on the machine) apart.
  const subnet = `127.26.${1 + Math.floor(Math.random() * 250)}`;
  const start = async (node: ClusterNodeProcess & { readonly conf: string }) => {
    const child = killedOnExit(spawn(REDIS_SERVER, [node.conf], { stdio: 'ignore' }));
    children.set(node.index, child);
    await untilPong(node.host, node.port, child);
  };
  const stopAll = async () => {
    await Promise.all([...children.values()].map((child) => stopProcess(child, { graceMs: 2000 })));
    await switchboard.close();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < 6; index += 1) {
      const host = `${subnet}.${index + 1}`;
      const port = await freePort();
      const busPort = await freePort();
      const announcedPort = await switchboard.relay(host, port);
      const announcedBusPort = await switchboard.relay(host, busPort);
      const dir = join(root, `node-${index}`);
      mkdirSync(dir, { recursive: true });
      const conf = join(root, `node-${index}.conf`);
      const lines = [
        `port ${port}`,
        `cluster-port ${busPort}`,
        `bind ${host}`,
        // Outgoing connections (gossip, replication) from its own address too: the switchboard
        // knows them by it.
        `bind-source-addr ${host}`,
        `cluster-announce-ip ${host}`,
        `cluster-announce-port ${announcedPort}`,
        `cluster-announce-bus-port ${announcedBusPort}`,
        `dir ${dir}`,
        'cluster-enabled yes',
        'cluster-config-file nodes.conf',
        `cluster-node-timeout ${CLUSTER_NODE_TIMEOUT_MS}`,
        'save ""',
        'appendonly no',
        'daemonize no',
        'loglevel warning',
        `logfile ${join(dir, 'redis.log')}`,
        'repl-ping-replica-period 1',
      ];
      if (settings.minReplicas !== null) {
        lines.push(`min-replicas-to-write ${settings.minReplicas.count}`, `min-replicas-max-lag ${settings.minReplicas.maxLagSeconds}`);
      }
      writeFileSync(conf, `${lines.join('\n')}\n`);
      const node = { index, host, port, announcedPort, conf, running: () => isRunning(children.get(index)) };
      nodes.push(node);
      await start(node);
    }
    await run(REDIS_CLI, ['--cluster', 'create', ...nodes.map((n) => `${n.host}:${n.announcedPort}`), '--cluster-replicas', '1', '--cluster-yes'], {
      timeout: 60_000,
    });
  } catch (error) {
    await stopAll();
    throw error;
  }

  const clusterNodes = async (besides?: ClusterNodeProcess): Promise<NodeLine[] | null> => {
    for (const node of nodes.filter((n) => n.running() && n.index !== besides?.index)) {
      const client = new Redis({ port: node.port, host: node.host, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const text = String(await client.call('cluster', 'nodes'));
        return text
          .trim()
          .split('\n')
          .map((line) => {
            const [id = '', address = '', flags = '', masterId = '', , , , link = '', ...slots] = line.split(' ');
            return {
              id,
              port: Number(address.split('@')[0]?.split(':')[1]),
              flags: flags.split(','),
              masterId,
              hasSlots: slots.length > 0,
              connected: link === 'connected',
            };
          });
      } catch {
        // ask the next node
      } finally {
        client.disconnect();
      }
    }
    return null;
  };
  const stateOk = async (node: ClusterNodeProcess): Promise<boolean> => {
    const { stdout } = await run(REDIS_CLI, ['-h', node.host, '-p', String(node.port), 'cluster', 'info']).catch(() => ({ stdout: '' }));
    return stdout.includes('cluster_state:ok');
  };
  const replicationUp = async (node: ClusterNodeProcess): Promise<boolean> => {
    const { stdout } = await run(REDIS_CLI, ['-h', node.host, '-p', String(node.port), 'info', 'replication']).catch(() => ({ stdout: '' }));
    return stdout.includes('master_link_status:up');
  };

  const natMap: Record<string, { host: string; port: number }> = {};
  for (const node of nodes) natMap[`${node.host}:${node.announcedPort}`] = { host: node.host, port: node.port };

  return {
    nodes,
    seeds: nodes.map((node) => ({ host: node.host, port: node.port })),
    natMap,
    async primaries(besides) {
      const lines = (await clusterNodes(besides)) ?? [];
      const ports = lines.filter((l) => l.flags.includes('master') && !l.flags.includes('fail') && l.hasSlots).map((l) => l.port);
      return nodes.filter((n) => ports.includes(n.announcedPort));
    },
    isolate(node) {
      return switchboard.isolate(node.host);
    },
    heal() {
      return switchboard.heal();
    },
    async kill(node) {
      const child = children.get(node.index);
      if (child === undefined || !isRunning(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async restart(node) {
      await start(nodes[node.index]!);
    },
    async awaitFailover(old, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let seen = '';
      while (Date.now() < deadline) {
        const lines = await clusterNodes(old);
        seen = describeNodes(lines);
        const entry = lines?.find((l) => l.port === old.announcedPort);
        const running = nodes.filter((n) => n.running() && n.index !== old.index);
        // Another node owns its slots now: `old` holds none. A `fail` flag alone is not enough: the
        // node asked may flag it before the others have heard, and before any replica won the
        // election; restarting a killed node (no persistence) then would come back empty as the
        // slots' primary and its replica would copy the empty data set (the hazard in the docs).
        const owners = (lines ?? []).filter(
          (l) => l.flags.includes('master') && l.hasSlots && !l.flags.includes('fail') && l.port !== old.announcedPort,
        );
        if (entry !== undefined && !entry.hasSlots && owners.length === 3) {
          if ((await Promise.all(running.map(stateOk))).every(Boolean)) return;
        }
        await sleep(100);
      }
      throw new Error(`no replica took over from the node on port ${old.announcedPort} within ${timeoutMs} ms (last seen: ${seen})`);
    },
    async awaitHealthy(timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      let seen = '';
      while (Date.now() < deadline) {
        const lines = await clusterNodes();
        seen = `${describeNodes(lines)}; running ${nodes.filter((n) => n.running()).length}`;
        if (lines !== null && nodes.every((n) => n.running())) {
          const masters = lines.filter((l) => l.flags.includes('master') && l.hasSlots && !l.flags.includes('fail'));
          const replicas = lines.filter((l) => l.flags.includes('slave') && !l.flags.includes('fail'));
          const covered = masters.every((m) => replicas.some((r) => r.masterId === m.id));
          const replicaNodes = nodes.filter((n) => replicas.some((r) => r.port === n.announcedPort));
          if (
            masters.length === 3 &&
            replicas.length === 3 &&
            covered &&
            lines.every((l) => l.connected || l.flags.includes('myself')) &&
            (await Promise.all(nodes.map(stateOk))).every(Boolean) &&
            (await Promise.all(replicaNodes.map(replicationUp))).every(Boolean)
          ) {
            return;
          }
        }
        await sleep(250);
      }
      throw new Error(`the cluster did not become healthy within ${timeoutMs} ms (last seen: ${seen})`);
    },
    stop: stopAll,
  };
}

/** One node table in a line, for an error message: port, flags, slots or not, link. */
function describeNodes(lines: readonly NodeLine[] | null): string {
  if (lines === null) return 'no node answered';
  return lines.map((l) => `${l.port}:${l.flags.join(',')}${l.hasSlots ? ':slots' : ''}${l.connected ? '' : ':disconnected'}`).join(' ');
}

function isRunning(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

async function untilPong(host: string, port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!isRunning(child)) throw new Error(`redis-server (cluster node) on port ${port} exited (${child.exitCode ?? child.signalCode})`);
    const probe = new Redis({ port, host, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      probe.disconnect();
    }
    await sleep(50);
  }
  throw new Error(`redis-server (cluster node) on port ${port} did not answer within 15 s`);
}
