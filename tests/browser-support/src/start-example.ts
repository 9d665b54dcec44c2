import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess, waitUntilAnswering } from '@sessauth/test-support';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_TIMEOUT_MS = 60_000;

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
    await waitUntilAnswering({
      child,
      ready: () => servesApiAndClient(origin),
      output: () => output.join('\n'),
      name: `example ${adapter}`,
      timeoutMs: START_TIMEOUT_MS,
    });
  } catch (error) {
    await stopProcess(child, { group: true });
    throw error;
  }
  return {
    origin,
    output,
    logEvents: (event) => output.filter((line) => line.includes(`"event":"${event}"`)),
    stop: () => stopProcess(child, { group: true }),
  };
}

/** Serving the API and the demo page's client. */
async function servesApiAndClient(origin: string): Promise<boolean> {
  const [api, client] = await Promise.all([fetch(`${origin}/auth/csrf/`), fetch(`${origin}/sessauth-client.js`)]);
  return api.ok && client.ok;
}
