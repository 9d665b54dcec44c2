import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const GEOLOCATION = fileURLToPath(new URL('./fake-geolocation.mjs', import.meta.url));

export interface ExampleServer {
  readonly baseUrl: string;
  /** Everything the server printed (stdout and stderr), line by line. */
  readonly output: string[];
  /** Lines of the core's `token_reuse_detected` warning. */
  reuseWarnings(): string[];
  stop(): Promise<void>;
}

/**
 * Starts `node scripts/example.mjs <adapter>` (as `pnpm example` does) on a free
 * port with 2-second access tokens, cookie transport, an in-memory store, login and
 * refresh throttles raised to 1000/min (the tests sign in and refresh far more than
 * a person would), the proxy on loopback trusted (so a test can give each device
 * a public IP with X-Forwarded-For) and a fixed-table geolocation provider.
 */
export async function startExample(adapter: string): Promise<ExampleServer> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['scripts/example.mjs', adapter], {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends tsx and the server with it
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSAUTH_STORE: 'memory:',
      JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
      JWT_ACCESS_TOKEN_EXPIRE_SECONDS: '2',
      JWT_LOGIN_THROTTLE_RATE: '1000/min',
      JWT_REFRESH_THROTTLE_RATE: '1000/min',
      JWT_TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
      JWT_GEOLOCATION_PROVIDER: GEOLOCATION,
    },
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream!.setEncoding('utf8');
    stream!.on('data', (chunk: string) => output.push(...chunk.split('\n').filter((line) => line !== '')));
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(baseUrl, child, output);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  return {
    baseUrl,
    output,
    reuseWarnings: () => output.filter((line) => line.includes('"event":"token_reuse_detected"')),
    stop: () => stopProcessGroup(child),
  };
}

async function waitUntilServing(baseUrl: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`example exited with ${child.exitCode}:\n${output.join('\n')}`);
    try {
      const [page, client] = await Promise.all([fetch(`${baseUrl}/`), fetch(`${baseUrl}/sessauth-client.js`)]);
      if (page.ok && client.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`example did not serve / and /sessauth-client.js within 60 s:\n${output.join('\n')}`);
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

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
