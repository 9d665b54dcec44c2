import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '@sessauth/test-support';

/**
 * A redis-server of the test's own, on its own port: the faults that hit a whole
 * server (DEBUG SLEEP, CLIENT PAUSE, a crash and restart) never touch the shared
 * one on 6379. Every write is fsync'd to the append-only file before Redis answers
 * (`appendfsync always`), so an acknowledged write survives a crash, as the Redis
 * store's start-up check asks of production.
 */
export interface OwnRedisServer {
  readonly port: number;
  /** SIGKILL: a crash, no clean shutdown. */
  crash(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export async function startOwnRedis(): Promise<OwnRedisServer> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} not found (apt-get install redis-server)`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-faults-redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'];
    args.push('--appendfsync', 'always', '--enable-debug-command', 'yes', '--daemonize', 'no', '--loglevel', 'warning');
    const process = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    child = process;
    await untilAnswering(port, process);
  };
  const crash = async () => {
    const process = child;
    child = null;
    if (process === null || process.exitCode !== null) return;
    const exited = new Promise((resolve) => process.once('exit', resolve));
    process.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    crash,
    start,
    async stop() {
      await crash();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function untilAnswering(port: number, process: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`redis-server exited with ${process.exitCode}`);
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // not up yet (or still loading its append-only file)
    } finally {
      probe.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not answer within 10 s');
}
