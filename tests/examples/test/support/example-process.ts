import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunningExample {
  readonly baseUrl: string;
  readonly port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node scripts/example.mjs <adapter>` (what `pnpm example <adapter>` runs) on
 * a free loopback port with an in-memory store, `env` on top of a clean environment
 * (no NODE_ENV or JWT_* of the test runner leaks in), and waits until `GET /` answers.
 */
export async function startExample(adapter: string, env: Record<string, string>): Promise<RunningExample> {
  const port = await freePort();
  const child = spawnExample(adapter, { PORT: String(port), HOST: '127.0.0.1', SESSAUTH_STORE: 'memory:', ...env });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`example ${adapter} exited with ${child.process.exitCode}:\n${child.output()}`);
    if (await answers(`${baseUrl}/`)) break;
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`example ${adapter} did not serve / within 60 s:\n${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { baseUrl, port, output: child.output, stop: child.stop };
}

/** Runs an example that is expected to refuse to start; resolves its exit code and output. */
export async function exampleExit(adapter: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawnExample(adapter, { PORT: String(await freePort()), HOST: '127.0.0.1', SESSAUTH_STORE: 'memory:', ...env });
  const code = await new Promise<number | null>((resolve) => child.process.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output: child.output() };
}

function spawnExample(adapter: string, env: Record<string, string>) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/example.mjs', adapter], {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends tsx and the server under it
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGTERM');
    const ended = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]);
    if (!ended) process.kill(-child.pid!, 'SIGKILL');
  };
  return { process: child, output: () => output, stop };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
