import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess, waitUntilAnswering } from '@sessauth/test-support';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What the servers of one store share: the secret (so two processes accept each other's tokens) and the users. */
export interface ServerSettings {
  /** `SESSAUTH_STORE`. */
  readonly storeUrl: string;
  readonly secret: string;
  readonly users: readonly DemoCredentials[];
  /** Extra environment (e.g. JWT_MAX_ACTIVE_SESSIONS). */
  readonly env?: Readonly<Record<string, string>>;
  /** Listen on this port (a restarted server takes its predecessor's); a free one otherwise. */
  readonly port?: number;
  /** Run the server as this user (uid, gid); the tests use it when they run as root. */
  readonly runAs?: { readonly uid: number; readonly gid: number };
}

export interface DemoCredentials {
  readonly username: string;
  readonly password: string;
}

export interface ExampleServer {
  readonly baseUrl: string;
  readonly pid: number;
  /** Everything the server printed, line by line. */
  readonly output: string[];
  /** Null while it runs; how it ended otherwise. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  stop(): Promise<void>;
}

/** Demo users `faults-0`..`faults-<n-1>` with random passwords (no comma or colon). */
export function demoUsers(count: number): DemoCredentials[] {
  return Array.from({ length: count }, (_, i) => ({ username: `faults-${i}`, password: randomBytes(12).toString('hex') }));
}

export function newServerSettings(storeUrl: string, userCount: number, env: Record<string, string> = {}): ServerSettings {
  return { storeUrl, secret: randomBytes(48).toString('base64url'), users: demoUsers(userCount), env };
}

/**
 * Starts `examples/<adapter>/src/server.ts` from source in one Node process (tsx
 * as a loader, so the pid is the server's), in body transport, with throttles far
 * above the load (they still hit the store on every login and refresh), and
 * loopback trusted as a proxy so that each virtual client has its own address.
 */
export async function startExampleServer(
  settings: ServerSettings,
  adapter = process.env.SESSAUTH_FAULTS_ADAPTER ?? 'express',
): Promise<ExampleServer> {
  const port = settings.port ?? (await freePort());
  const output: string[] = [];
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const child: ChildProcess = spawn(process.execPath, ['--conditions=@sessauth/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: `${ROOT}examples/${adapter}`,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(settings.runAs ?? {}),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSAUTH_STORE: settings.storeUrl,
      SESSAUTH_DEMO_USERS: settings.users.map((u) => `${u.username}:${u.password}`).join(','),
      SESSAUTH_ADMIN_USERS: '',
      JWT_SECRET_KEY: settings.secret,
      JWT_ISSUER: 'https://faults.example',
      JWT_AUDIENCE: 'faults',
      JWT_REFRESH_TOKEN_TRANSPORT: 'body',
      JWT_LOGIN_THROTTLE_RATE: '1000000/min',
      JWT_REFRESH_THROTTLE_RATE: '1000000/min',
      JWT_TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
      // The library's defaults: the examples turn the activity history and the risk signals on for
      // the demo page; this suite's load and answer bounds measure the seed's contract without them
      // (a test that wants them sets them in settings.env).
      JWT_SESSION_ACTIVITY: 'false',
      ...settings.env,
    },
  });
  child.on('exit', (code, signal) => (exited = { code, signal }));
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => output.push(...chunk.split('\n').filter((line) => line !== '')));
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ExampleServer = {
    baseUrl,
    pid: child.pid ?? -1,
    output,
    exit: () => exited,
    stop: () => stopProcess(child),
  };
  try {
    await waitUntilAnswering({
      child,
      ready: async () => (await fetch(`${baseUrl}/auth/csrf/`)).ok,
      output: () => output.join('\n'),
      name: `example server ${adapter}`,
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
