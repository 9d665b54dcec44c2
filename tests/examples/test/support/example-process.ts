import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess, waitUntilAnswering } from '@sessauth/test-support';

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
  try {
    await waitUntilAnswering({
      child: child.process,
      ready: () => answers(`${baseUrl}/`),
      output: child.output,
      name: `example ${adapter}`,
      timeoutMs: 60_000,
    });
  } catch (error) {
    await child.stop();
    throw error;
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
  return { process: child, output: () => output, stop: () => stopProcess(child, { group: true }) };
}

async function answers(url: string): Promise<boolean> {
  return (await fetch(url)).ok;
}
