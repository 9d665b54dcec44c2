import { spawn, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';

export interface PrivateRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * A Redis server of the bench's own on another port, without persistence, for the
 * million-session test: the shared server on 6379 is left to the other suites.
 * Null when redis-server is not installed.
 */
export async function startPrivateRedis(port = 6391): Promise<PrivateRedis | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    // Refused while the server starts: expected, and retried below.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return {
        url,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    } catch {
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not start`);
}
