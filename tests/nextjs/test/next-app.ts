import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess, waitUntilAnswering } from '@sessauth/test-support';

/** The Next.js project the tests build and start. */
export const FIXTURE = fileURLToPath(new URL('../fixture/', import.meta.url));
const NEXT_BIN = fileURLToPath(new URL('../node_modules/next/dist/bin/next', import.meta.url));

/** The settings every started app shares; each start adds its own. */
export const BASE_ENV: Readonly<Record<string, string>> = {
  JWT_SECRET_KEY: 'nextjs-fixture-secret-of-at-least-thirty-two-bytes',
  JWT_ISSUER: 'http://127.0.0.1',
  JWT_AUDIENCE: 'nextjs-fixture',
  NEXT_TELEMETRY_DISABLED: '1',
};

/** `next build`, once; rejects with its output when it fails. */
export async function buildFixture(): Promise<void> {
  const child = spawn(process.execPath, [NEXT_BIN, 'build'], {
    cwd: FIXTURE,
    env: { ...process.env, ...BASE_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`next build exited with ${code}:\n${output}`);
}

export interface StartedApp {
  readonly origin: string;
  stop(): Promise<void>;
}

/** `next start` on a free port of 127.0.0.1, resolved once it answers HTTP. */
export async function startFixture(env: Record<string, string>): Promise<StartedApp> {
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: FIXTURE,
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  // Any HTTP answer means the server is up (a refused connection is not yet).
  const answersHttp = async () => {
    await fetch(`${origin}/api/me`);
    return true;
  };
  await waitUntilAnswering({ child, ready: answersHttp, output: () => output, name: 'next start' });
  return { origin, stop: () => stopProcess(child) };
}
