import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A three-master Redis Cluster on loopback, started by the test and shut down after it. */
export interface LocalRedisCluster {
  readonly ports: readonly number[];
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Three ports whose cluster-bus twins (port + 10000) are free too. */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (!ports.includes(port) && (await isFree(port)) && (await isFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

async function clusterState(port: number): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'cluster', 'info']);
  return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
}

/**
 * Starts the nodes (no persistence, daemonized, files in a temporary directory),
 * joins them with `redis-cli --cluster create` and waits for `cluster_state:ok` on
 * every node. Rejects (after cleaning up) when redis-server or redis-cli is missing.
 */
export async function startLocalRedisCluster(): Promise<LocalRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'sessauth-redis-cluster-'));
  const ports = await freePorts(3);
  const stop = async (): Promise<void> => {
    await Promise.allSettled(ports.map((port) => run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'shutdown', 'nosave'])));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      await run('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'yes',
        '--dir',
        dir,
        '--logfile',
        join(dir, `redis-${port}.log`),
      ]);
    }
    await waitFor(async () => {
      const replies = await Promise.allSettled(ports.map((port) => run('redis-cli', ['-p', String(port), 'ping'])));
      return replies.every((reply) => reply.status === 'fulfilled');
    });
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    await waitFor(async () => (await Promise.all(ports.map(clusterState))).every((state) => state === 'ok'));
    return { ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitFor(ready: () => Promise<boolean>, attempts = 100): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the local Redis Cluster did not become ready');
}
