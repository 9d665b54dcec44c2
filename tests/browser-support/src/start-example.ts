import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface StartExampleOptions {
  /** Settings on top of the defaults below (a suite's transport, throttles, users...). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One example server in its own process group. */
export interface ExampleServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every line the server printed so far, stdout and stderr. */
  readonly output: readonly string[];
  /** The lines of one event of the core's JSON log, e.g. `token_reuse_detected`. */
  logEvents(event: string): string[];
  stop(): Promise<void>;
}

/**
 * Starts `node scripts/example.mjs <adapter>` (what `pnpm example <adapter>` runs) on
 * a free loopback port and waits until it serves the API and the demo page's client
 * (`GET /auth/csrf/` and `GET /sessauth-client.js`). Defaults: an in-memory store, the
 * demo users alice and bob, no geolocation; `options.env` adds to or replaces them.
 */
export async function startExample(adapter: string, options: StartExampleOptions = {}): Promise<ExampleServer> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['scripts/example.mjs', adapter], {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends tsx and the server under it
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSAUTH_STORE: 'memory:',
      SESSAUTH_DEMO_USERS: 'alice:alice-password,bob:bob-password',
      JWT_GEOLOCATION_PROVIDER: '',
      ...options.env,
    },
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => output.push(...chunk.split('\n').filter((line) => line !== '')));
  }
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(adapter, origin, child, output);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  return {
    origin,
    output,
    logEvents: (event) => output.filter((line) => line.includes(`"event":"${event}"`)),
    stop: () => stopProcessGroup(child),
  };
}

async function waitUntilServing(adapter: string, origin: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = 'not listening yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`example ${adapter} exited with ${child.exitCode}:\n${output.join('\n')}`);
    try {
      const [api, client] = await Promise.all([fetch(`${origin}/auth/csrf/`), fetch(`${origin}/sessauth-client.js`)]);
      if (api.ok && client.ok) return;
      last = `GET /auth/csrf/ ${api.status}, GET /sessauth-client.js ${client.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`example ${adapter} did not come up within ${START_TIMEOUT_MS / 1000} s (${last}):\n${output.join('\n')}`);
}

/** SIGTERM to the whole group, SIGKILL if it is still there after the grace period. */
async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already (ESRCH): nothing left to stop.
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
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
