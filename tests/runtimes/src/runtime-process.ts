import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RuntimeProcess } from './remote-cell.js';

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** The command line that runs a bundled entry on Bun or Deno. */
export function runtimeCommand(runtime: 'bun' | 'deno', entry: string): string[] {
  if (runtime === 'bun') return [bin('bun'), 'run', entry];
  return [bin('deno'), 'run', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${tmpdir()}`, '--allow-ffi', '--allow-sys', entry];
}

/**
 * Starts the runtime (on a bundled control app, or an example) and waits for the line `ready` matches.
 * Its output goes to this process's stderr, so a crash is seen in the test log.
 */
export function startRuntimeProcess(
  command: readonly string[],
  env: Record<string, string> = {},
  ready = /SESSAUTH_CONTROL (\S+)/,
): Promise<RuntimeProcess> {
  const [file, ...args] = command as [string, ...string[]];
  // A process group of its own: the npm packages' launchers (Deno's is a Node script) start the
  // runtime as a child of theirs, and a signal to the launcher alone left the runtime running.
  const child = spawn(file, args, { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group has already gone.
    }
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${file} printed no ${ready} in 30 s: ${seen}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      signalGroup('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`${file} exited with ${code}: ${seen}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      seen += text;
      const url = ready.exec(seen)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        controlUrl: url,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) {
              signalGroup('SIGKILL');
              return done();
            }
            child.once('exit', () => {
              signalGroup('SIGKILL');
              done();
            });
            signalGroup('SIGTERM');
          }),
      });
    });
  });
}
