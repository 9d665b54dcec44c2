import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultProxy, type FaultProxy } from '@sessauth/conformance/faults';
import { freePort, stopProcess } from '@sessauth/test-support';
import { Redis } from 'ioredis';
import { sleep } from '../load.js';
import { killedOnExit } from './killed-on-exit.js';
import { REDIS_SERVER } from '../stores/redis-server.js';

/** The name the sentinels monitor the primary under. */
export const PRIMARY_NAME = 'sessauth-failover';

/** What the primary (and every replica, which may become primary) is configured with. */
export interface ReplicationSettings {
  /**
   * `min-replicas-to-write` / `min-replicas-max-lag` (seconds): a primary that has heard from fewer
   * replicas within the lag refuses writes (NOREPLICAS). null: off (Redis' default).
   */
  readonly minReplicas: { readonly count: number; readonly maxLagSeconds: number } | null;
}

/**
 * Sentinel timings: small, so that a failover takes seconds in a test, but not so small that a loaded
 * two-core machine (a load average of 25 was seen) makes the sentinels fail a healthy primary over.
 */
export const DOWN_AFTER_MS = 2500;
export const FAILOVER_TIMEOUT_MS = 6000;

/**
 * One Redis server of the group. Replicas and sentinels reach it only through its fault proxy
 * (it announces the proxy's port), so the proxy can cut it off from them; the application
 * reaches it directly (ioredis `natMap`), so a partitioned primary still hears the application,
 * which is the split-brain case.
 */
export interface RedisNode {
  readonly index: number;
  /** The port the server listens on (the application's way in). */
  readonly port: number;
  /** The proxy in front of it (the replicas' and sentinels' way in, and its announced address). */
  readonly proxy: FaultProxy;
  readonly dir: string;
  running(): boolean;
}

/** A primary, its replicas and three sentinels, all on free loopback ports, in temp directories. */
export interface ReplicatedRedis {
  readonly nodes: readonly RedisNode[];
  readonly sentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  /** Maps each announced (proxy) address to the server's own port, for the application's client. */
  readonly natMap: Record<string, { host: string; port: number }>;
  /** The node the sentinels name as primary now. */
  primary(): Promise<RedisNode>;
  /** SIGKILL of a node (a crash). */
  kill(node: RedisNode): Promise<void>;
  /** Starts a killed node again (same config file: the sentinels turn it into a replica). */
  restart(node: RedisNode): Promise<void>;
  /** Waits until the sentinels name another primary than `old`; returns it. */
  awaitNewPrimary(old: RedisNode, timeoutMs?: number): Promise<RedisNode>;
  /** Waits until every node runs, one is primary, and every other one is its replica with the link up. */
  awaitHealthy(timeoutMs?: number): Promise<RedisNode>;
  /** A direct admin connection to a node (not through its proxy). */
  admin(node: RedisNode): Redis;
  stop(): Promise<void>;
}

/** Starts `replicas + 1` servers (node 0 the primary) and three sentinels; throws when redis-server is missing. */
export async function startReplicatedRedis(settings: ReplicationSettings, replicas = 2): Promise<ReplicatedRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} not found (apt-get install redis-server)`);
  const root = mkdtempSync(join(tmpdir(), 'sessauth-failover-'));
  const children = new Map<number, ChildProcess>();
  const sentinelChildren: ChildProcess[] = [];
  const admins = new Map<number, Redis>();
  const nodes: Array<RedisNode & { readonly conf: string }> = [];
  let stopped = false;

  const startNode = async (node: RedisNode & { readonly conf: string }) => {
    const child = killedOnExit(spawn(REDIS_SERVER, [node.conf], { stdio: 'ignore' }));
    children.set(node.index, child);
    await untilPong(node.port, child, 'redis-server');
  };

  try {
    for (let index = 0; index <= replicas; index += 1) {
      const port = await freePort();
      const proxy = await startFaultProxy({ target: { port } });
      const dir = join(root, `node-${index}`);
      const conf = join(root, `node-${index}.conf`);
      mkdirSync(dir, { recursive: true });
      const lines = [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        // No persistence: the test restarts a killed node only after the failover, as a replica
        // (a primary without persistence restarted before the sentinels notice would wipe its
        // replicas: the documented Redis hazard, see docs/running-on-more-than-one-machine.md).
        'save ""',
        'appendonly no',
        'daemonize no',
        'loglevel warning',
        `logfile ${join(dir, 'redis.log')}`,
        'replica-announce-ip 127.0.0.1',
        `replica-announce-port ${proxy.port}`,
        // Equal priorities: the sentinels then promote the replica with the most data.
        'replica-priority 100',
        'repl-timeout 5',
        'repl-ping-replica-period 1',
      ];
      if (settings.minReplicas !== null) {
        lines.push(`min-replicas-to-write ${settings.minReplicas.count}`, `min-replicas-max-lag ${settings.minReplicas.maxLagSeconds}`);
      }
      nodes.push({ index, port, proxy, dir, conf, running: () => isRunning(children.get(index)) });
      writeFileSync(conf, `${lines.join('\n')}\n`);
    }
    const primaryProxyPort = nodes[0]!.proxy.port;
    for (const node of nodes.slice(1)) writeFileSync(node.conf, `replicaof 127.0.0.1 ${primaryProxyPort}\n`, { flag: 'a' });
    for (const node of nodes) await startNode(node);

    const sentinels: Array<{ host: string; port: number }> = [];
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const dir = join(root, `sentinel-${i}`);
      mkdirSync(dir, { recursive: true });
      const conf = join(dir, 'sentinel.conf');
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          'daemonize no',
          'loglevel warning',
          `logfile ${join(dir, 'sentinel.log')}`,
          `sentinel monitor ${PRIMARY_NAME} 127.0.0.1 ${primaryProxyPort} 2`,
          `sentinel down-after-milliseconds ${PRIMARY_NAME} ${DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${PRIMARY_NAME} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${PRIMARY_NAME} 1`,
          '',
        ].join('\n'),
      );
      const child = killedOnExit(spawn(REDIS_SERVER, [conf, '--sentinel'], { stdio: 'ignore' }));
      sentinelChildren.push(child);
      await untilPong(port, child, 'redis-sentinel');
      sentinels.push({ host: '127.0.0.1', port });
    }

    const natMap: Record<string, { host: string; port: number }> = {};
    for (const node of nodes) natMap[`127.0.0.1:${node.proxy.port}`] = { host: '127.0.0.1', port: node.port };

    const admin = (node: RedisNode): Redis => {
      let client = admins.get(node.index);
      if (client === undefined) {
        client = new Redis({ host: '127.0.0.1', port: node.port, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 2000 });
        client.on('error', () => undefined);
        admins.set(node.index, client);
      }
      return client;
    };
    /** Each sentinel's primary (null where one does not answer). */
    const everySentinelsPrimary = async (): Promise<Array<RedisNode | null>> => Promise.all(sentinels.map((sentinel) => primaryNamedBy([sentinel])));
    const askSentinels = (): Promise<RedisNode | null> => primaryNamedBy(sentinels);
    const primaryNamedBy = async (asked: ReadonlyArray<{ host: string; port: number }>): Promise<RedisNode | null> => {
      for (const sentinel of asked) {
        const client = new Redis({ ...sentinel, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
        client.on('error', () => undefined);
        try {
          await client.connect();
          const reply = (await client.call('sentinel', 'get-master-addr-by-name', PRIMARY_NAME)) as [string, string] | null;
          const node = reply === null ? undefined : nodes.find((n) => n.proxy.port === Number(reply[1]));
          if (node !== undefined) return node;
        } catch {
          // this sentinel does not answer: ask the next one
        } finally {
          client.disconnect();
        }
      }
      return null;
    };
    const group: ReplicatedRedis = {
      nodes,
      sentinels,
      natMap,
      async primary() {
        const node = await askSentinels();
        if (node === null) throw new Error('no sentinel names a primary');
        return node;
      },
      async kill(node) {
        const child = children.get(node.index);
        if (child === undefined || !isRunning(child)) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        admins.get(node.index)?.disconnect();
        admins.delete(node.index);
      },
      async restart(node) {
        await startNode(nodes[node.index]!);
      },
      async awaitNewPrimary(old, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const now = await askSentinels();
          if (now !== null && now.index !== old.index && (await roleOf(admin(now))) === 'master') return now;
          await sleep(100);
        }
        throw new Error(`the sentinels named no new primary within ${timeoutMs} ms`);
      },
      async awaitHealthy(timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        let last = '';
        while (Date.now() < deadline) {
          const named = await everySentinelsPrimary();
          const primary = named[0] ?? null;
          // Every sentinel names the same primary: no failover is still under way.
          if (primary !== null && named.every((n) => n === primary) && nodes.every((n) => n.running())) {
            const info = await admin(primary)
              .info('replication')
              .catch(() => '');
            const replicasUp = await Promise.all(
              nodes
                .filter((n) => n.index !== primary.index)
                .map(async (n) => {
                  const text = await admin(n)
                    .info('replication')
                    .catch(() => '');
                  return text.includes('role:slave') && text.includes('master_link_status:up') && text.includes(`master_port:${primary.proxy.port}`);
                }),
            );
            last = `primary ${primary.index}: ${info.match(/connected_slaves:\d+/)?.[0]}, replicas up ${replicasUp.join(',')}`;
            if (info.includes('role:master') && info.includes(`connected_slaves:${replicas}`) && replicasUp.every(Boolean)) return primary;
          }
          await sleep(200);
        }
        throw new Error(`the group did not become healthy within ${timeoutMs} ms (${last})`);
      },
      admin,
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const client of admins.values()) client.disconnect();
        await Promise.all([...sentinelChildren, ...children.values()].map((child) => stopProcess(child, { graceMs: 2000 })));
        await Promise.all(nodes.map((node) => node.proxy.close()));
        rmSync(root, { recursive: true, force: true });
      },
    };
    return group;
  } catch (error) {
    await Promise.all([...sentinelChildren, ...children.values()].map((child) => stopProcess(child, { graceMs: 1000 })));
    await Promise.all(nodes.map((node) => node.proxy.close()));
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

function isRunning(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

async function roleOf(client: Redis): Promise<string | null> {
  try {
    const reply = (await client.call('role')) as unknown[];
    return String(reply[0]);
  } catch {
    return null;
  }
}

async function untilPong(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!isRunning(child)) throw new Error(`${what} on port ${port} exited (${child.exitCode ?? child.signalCode})`);
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
  throw new Error(`${what} on port ${port} did not answer within 15 s`);
}
