import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunningExample {
  readonly origin: string;
  /** What the example printed so far (for a failure message). */
  output(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `node scripts/example.mjs <adapter>` (as `pnpm example <adapter>` does) on
 * a free loopback port, with an in-memory store and the demo users, and waits until
 * its admin listing answers (401 without a session).
 */
export async function startExample(adapter: string, env: Record<string, string> = {}): Promise<RunningExample> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/example.mjs', adapter], {
    cwd: ROOT,
    // Its own process group, so stop() ends the example and the tsx process under it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSAUTH_STORE: 'memory:',
      SESSAUTH_DEMO_USERS: 'alice:alice-password,bob:bob-password',
      SESSAUTH_ADMIN_USERS: 'alice',
      JWT_LOGIN_THROTTLE_RATE: '0',
      // The seeding logins are API calls (curl-like), so the refresh token travels in the body.
      JWT_REFRESH_TOKEN_TRANSPORT: 'body',
      JWT_GEOLOCATION_PROVIDER: '',
      ...env,
    },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
      if (!killed) process.kill(-child.pid!, 'SIGKILL');
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`example ${adapter} exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${origin}/admin/sessauth/session/?format=json`);
      if (response.status === 401) break;
      throw new Error(`unexpected status ${response.status}`);
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`example ${adapter} did not come up: ${(error as Error).message}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { origin, output: () => output, stop };
}
