import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// tsx as a loader of this very process (its CLI would add a wrapper process, which --cpu-prof would profile instead).
const TSX_LOADER = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const SERVER = fileURLToPath(new URL('../servers/server.ts', import.meta.url));

export interface RunningServer {
  readonly pid: number;
  readonly url: string;
  readonly headers: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts one variant as its own Node process (sources through the tsx loader, the workspace
 * packages through the `@sessauth/source` condition) and waits for its READY line.
 * `nodeArgs` go to Node itself (e.g. `--cpu-prof`).
 */
export function startServer(variantId: string, nodeArgs: readonly string[] = [], timeoutMs = 120_000): Promise<RunningServer> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', TSX_LOADER, '--conditions=@sessauth/source', SERVER, variantId], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', BETTER_AUTH_TELEMETRY: '0' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${variantId}: no READY within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr}`));
    };
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^READY (.*)$/m.exec(stdout);
      if (line === null) return;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      const ready = JSON.parse(line[1]!) as { port: number; headers: Record<string, string> };
      resolve({ pid: child.pid!, url: `http://127.0.0.1:${ready.port}/me`, headers: ready.headers, stop: () => stop(child) });
    });
    const onEarlyExit = (code: number | null) => fail(new Error(`${variantId}: exited with ${code} before READY`));
    child.once('exit', onEarlyExit);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
