import { randomBytes } from 'node:crypto';
import { RedisSessionStore, createRedisClusterClient, createRedisSentinelClient, type RedisDurability } from '@sessauth/redis';
import type { Cluster, Redis } from 'ioredis';
import type { Violation } from '../checker.js';
import { demoUsers, type DemoCredentials } from '../example-server.js';
import { send } from '../wire.js';
import { History, type HistoryEntry } from '../history.js';
import { createClients, signIn, sleep } from '../load.js';
import { runScenario, summaryLine, type Fault, type LoadShape } from '../scenario.js';
import { REDIS_DEADLINE_MS, SOAK } from '../timing.js';
import { startInProcessServer } from './in-process-server.js';
import { addLosses, countLosses, NO_LOSS, refreshLatency, rulesOf, type LossCounts } from './losses.js';
import { CLUSTER_NODE_TIMEOUT_MS, startRedisClusterGroup, type ClusterNodeProcess, type RedisClusterGroup } from './redis-cluster-group.js';
import { DOWN_AFTER_MS, FAILOVER_TIMEOUT_MS, PRIMARY_NAME, startReplicatedRedis, type ReplicatedRedis } from './replicated-redis.js';

/** How the primary fails. */
export type FailoverFault = 'kill' | 'partition';

/**
 * The documented durable configuration (docs/running-on-more-than-one-machine.md): every state change
 * waits for one of the two replicas, and a primary that has heard from no replica for 2 s refuses
 * writes, which bounds what a partitioned old primary can accept.
 */
export const DURABLE_STORE: RedisDurability = { replicas: 1, timeoutMs: 500 };
export const DURABLE_SERVER = { minReplicas: { count: 1, maxLagSeconds: 2 } } as const;

/** Sentinel: a primary, two replicas, three sentinels. Cluster: three primaries, three replicas. */
export type FailoverTopology = 'sentinel' | 'cluster';

export interface FailoverCell {
  readonly topology: FailoverTopology;
  readonly durable: boolean;
  /**
   * Only the servers' half of the durable configuration (`min-replicas-to-write`, `min-replicas-max-lag`),
   * the store without `durability`: shows what the server settings alone leave open. Needs `durable: false`.
   */
  readonly serverOnly?: boolean;
  readonly fault: FailoverFault;
  readonly failovers: number;
}

export interface CellResult {
  readonly cell: FailoverCell;
  readonly failovers: number;
  readonly losses: LossCounts;
  /** Violations that are not losses (availability), with the scenario they came from. */
  readonly others: ReadonlyArray<Violation & { readonly scenario: number }>;
  readonly refreshP50: number | null;
  readonly refreshP99: number | null;
  readonly requests: number;
  readonly statuses: Record<string, number>;
  /** Milliseconds from each heal to a full login and guarded read. */
  readonly recoveries: ReadonlyArray<number | null>;
  readonly durabilityUnmet: number;
  /** After the last failover, once the group is healthy: ms until a login and a guarded read succeed (null: not within 30 s). */
  readonly finalRecoveryMs: number | null;
}

/** 40 requests a second from 24 clients: the fault suite's load, a little lighter (one process serves it and runs six Redis processes beside it). */
export const FAILOVER_LOAD: LoadShape = { clients: 24, rate: 40, warmupMs: SOAK ? 3000 : 1000, settleMs: SOAK ? 2000 : 500 };

/** How long the partition holds: past the failover timeout, so the sentinels promote a replica meanwhile. */
export const PARTITION_MS = FAILOVER_TIMEOUT_MS + 2000;

function settingsName(cell: FailoverCell): string {
  if (cell.durable) return 'durable';
  return cell.serverOnly === true ? 'server settings only' : 'default';
}

export function cellName(cell: FailoverCell): string {
  return `${cell.topology === 'sentinel' ? 'Sentinel' : 'Cluster'}, ${settingsName(cell)}, ${cell.fault === 'kill' ? 'SIGKILL of the primary' : `primary partitioned ${PARTITION_MS / 1000} s`}`;
}

/**
 * One cell of the table: a fresh group (primary, two replicas, three sentinels; or a 3+3 cluster), the
 * store through Sentinel (or the Cluster client), the engine in process, the fault suite's mixed load, and `failovers` failovers one after
 * another (the group is healthy again before each). Every failover is one scenario of the fault
 * suite (`runScenario`: load, fault, heal, recovery, committed checks, history checker).
 */
export async function runFailoverCell(cell: FailoverCell, log: (line: string) => void): Promise<CellResult> {
  const deployment = await deploy(cell);
  const { client } = deployment;
  const output: string[] = [];
  let server: Awaited<ReturnType<typeof startInProcessServer>> | null = null;
  try {
    const users = demoUsers(FAILOVER_LOAD.clients + 1);
    const store = new RedisSessionStore({
      client,
      keyPrefix: `failover-${randomBytes(4).toString('hex')}:`,
      ...(cell.durable ? { durability: DURABLE_STORE } : {}),
      logger: { warn: (event) => void output.push(event), error: (event) => void output.push(event) },
    });
    server = await startInProcessServer({ store, users, secret: randomBytes(48).toString('base64url'), output });
    const target = { server, users, deadlineMs: REDIS_DEADLINE_MS };
    // Replicas attached before the first login: the durable store's writes wait for one.
    await deployment.awaitHealthy();
    const clients = createClients(users, FAILOVER_LOAD.clients);
    const stragglers = await signIn({ baseUrl: server.baseUrl, limitMs: 20_000 }, clients, new History());
    if (stragglers.length > 0) throw new Error(`${stragglers.length} clients could not sign in before the first failover`);

    let losses = NO_LOSS;
    const others: Array<Violation & { scenario: number }> = [];
    const entries: HistoryEntry[] = [];
    const recoveries: Array<number | null> = [];
    for (let i = 0; i < cell.failovers; i += 1) {
      await deployment.awaitHealthy();
      const fault = deployment.fault(cell.fault);
      const report = await runScenario(target, fault, FAILOVER_LOAD, clients);
      const counted = countLosses(report.violations);
      losses = addLosses(losses, counted.losses);
      others.push(...counted.others.map((violation) => ({ ...violation, scenario: i + 1 })));
      entries.push(...report.entries);
      recoveries.push(report.recoveryMs);
      // The first few findings by name, so that a loss in a long run can be traced (no tokens: the
      // details name clients, request numbers, statuses and codes).
      const late = report.violations.filter((v) => v.rule === 'slow-answer' || v.rule === 'no-answer').map((v) => v.detail);
      const lost = report.violations
        .filter((v) => ['revoked-but-served', 'double-refresh', 'live-session-lost', 'uncommitted-token'].includes(v.rule))
        .map((v) => `${v.rule}: ${v.detail}`);
      log(
        `${summaryLine(cellName(cell), report)} | lost ${JSON.stringify(counted.losses)} | other violations ${rulesOf(counted.others)}${late.length > 0 ? ` | late: ${late.slice(0, 5).join('; ')}` : ''}${lost.length > 0 ? ` | lost: ${lost.slice(0, 5).join('; ')}` : ''}`,
      );
    }
    await deployment.awaitHealthy();
    const finalRecoveryMs = await untilServing(server.baseUrl, users[FAILOVER_LOAD.clients]!);
    const statuses: Record<string, number> = {};
    for (const entry of entries) statuses[String(entry.status)] = (statuses[String(entry.status)] ?? 0) + 1;
    return {
      cell,
      failovers: cell.failovers,
      losses,
      others,
      refreshP50: refreshLatency(entries, 50),
      refreshP99: refreshLatency(entries, 99),
      requests: entries.length,
      statuses,
      recoveries,
      durabilityUnmet: output.filter((line) => line === 'redis_durability_unmet').length,
      finalRecoveryMs,
    };
  } finally {
    await server?.stop();
    client.disconnect();
    await deployment.stop();
  }
}

/** What a cell runs on: the servers, the application's client, and how to fail the primary. */
interface Deployment {
  readonly client: Redis | Cluster;
  awaitHealthy(): Promise<void>;
  fault(kind: FailoverFault): Fault;
  stop(): Promise<void>;
}

async function deploy(cell: FailoverCell): Promise<Deployment> {
  const settings = { minReplicas: cell.durable || cell.serverOnly === true ? DURABLE_SERVER.minReplicas : null };
  if (cell.topology === 'cluster') {
    const cluster = await startRedisClusterGroup(settings);
    try {
      // ioredis' Cluster does not become ready while cluster_state is not ok (just after the create).
      await cluster.awaitHealthy();
      const client = await createRedisClusterClient(
        cluster.seeds.map((seed) => ({ ...seed })),
        { natMap: cluster.natMap },
      );
      client.on('error', () => undefined);
      return {
        client,
        awaitHealthy: () => cluster.awaitHealthy(),
        fault: (kind) => (kind === 'kill' ? clusterKillFault(cluster) : clusterPartitionFault(cluster)),
        stop: () => cluster.stop(),
      };
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }
  const group = await startReplicatedRedis(settings);
  try {
    const client = await createRedisSentinelClient({ sentinels: group.sentinels, name: PRIMARY_NAME, natMap: group.natMap });
    client.on('error', () => undefined);
    return {
      client,
      awaitHealthy: async () => void (await group.awaitHealthy()),
      fault: (kind) => (kind === 'kill' ? killFault(group) : partitionFault(group)),
      stop: () => group.stop(),
    };
  } catch (error) {
    await group.stop();
    throw error;
  }
}

/** SIGKILL of one of the three primaries; healed once its replica took its slots over, then it restarts (and rejoins as a replica). */
function clusterKillFault(cluster: RedisClusterGroup): Fault {
  let old: ClusterNodeProcess | null = null;
  return {
    name: 'SIGKILL of a cluster primary, its replica promoted',
    holdMs: 0,
    async inject() {
      const primaries = await cluster.primaries();
      old = primaries[Math.floor(Math.random() * primaries.length)] ?? null;
      if (old === null) throw new Error('the cluster has no primary');
      await cluster.kill(old);
    },
    async heal() {
      if (old === null) return;
      await cluster.awaitFailover(old, CLUSTER_NODE_TIMEOUT_MS * 10);
      await cluster.restart(old);
    },
  };
}

/**
 * A cluster primary cut off from every other node (gossip and replication) while the application
 * still reaches it: the cluster's split brain. Held past the failover (its replica, on the majority
 * side, is promoted meanwhile); healed when the other nodes agree it owns no slot any more. It then
 * hears the newer configuration and turns into a replica of its successor, dropping what it
 * accepted alone.
 */
function clusterPartitionFault(cluster: RedisClusterGroup): Fault {
  let old: ClusterNodeProcess | null = null;
  return {
    name: `cluster primary partitioned from every other node for ${PARTITION_MS / 1000} s`,
    holdMs: PARTITION_MS,
    async inject() {
      const primaries = await cluster.primaries();
      old = primaries[Math.floor(Math.random() * primaries.length)] ?? null;
      if (old === null) throw new Error('the cluster has no primary');
      await cluster.isolate(old);
    },
    async heal() {
      if (old === null) return;
      try {
        // An election can fail and is retried after 2 × cluster-node-timeout; on a machine with a load
        // average of 90 (seen) several rounds were needed.
        await cluster.awaitFailover(old, CLUSTER_NODE_TIMEOUT_MS * 24);
      } finally {
        await cluster.heal();
      }
    },
  };
}

/** SIGKILL of the primary; healed once the sentinels promoted a replica, then the old one restarts (it becomes a replica). */
function killFault(group: ReplicatedRedis): Fault {
  let old: Awaited<ReturnType<ReplicatedRedis['primary']>> | null = null;
  return {
    name: 'SIGKILL of the primary, a replica promoted',
    holdMs: 0,
    async inject() {
      old = await group.primary();
      await group.kill(old);
    },
    async heal() {
      if (old === null) return;
      await group.awaitNewPrimary(old, DOWN_AFTER_MS + FAILOVER_TIMEOUT_MS * 5);
      await group.restart(old);
    },
  };
}

/**
 * The primary cut off from its replicas and the sentinels (its proxy drops everything), while the
 * application still reaches it: the split brain. Held past the failover; healed when the sentinels
 * named a new primary and the old one hears them again (they turn it into a replica).
 */
function partitionFault(group: ReplicatedRedis): Fault {
  let old: Awaited<ReturnType<ReplicatedRedis['primary']>> | null = null;
  return {
    name: `primary partitioned from its replicas and the sentinels for ${PARTITION_MS / 1000} s`,
    holdMs: PARTITION_MS,
    async inject() {
      old = await group.primary();
      await old.proxy.setMode({ kind: 'blackhole' });
    },
    async heal() {
      if (old === null) return;
      try {
        await group.awaitNewPrimary(old, DOWN_AFTER_MS + FAILOVER_TIMEOUT_MS * 5);
      } finally {
        await old.proxy.setMode({ kind: 'pass' });
      }
    },
  };
}

/** Milliseconds until a login and a guarded read both succeed (the same process, no restart); null after 30 s. */
async function untilServing(baseUrl: string, user: DemoCredentials): Promise<number | null> {
  const started = Date.now();
  const ip = '198.51.100.252';
  while (Date.now() - started < 30_000) {
    const login = await send(baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 10_000);
    if (login.issued !== null) {
      const me = await send(baseUrl, { method: 'GET', path: '/me', access: login.issued.access, ip }, 10_000);
      if (me.status === 200) return Date.now() - started;
    }
    await sleep(200);
  }
  return null;
}
