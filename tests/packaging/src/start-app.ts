import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { entryFile, type ModuleSystem } from './app-files.js';
import { childEnv } from './run-command.js';

export type Framework = 'express' | 'hono' | 'fastify' | 'koa';
export type StoreKind = 'memory' | 'sqlite' | 'postgres' | 'mysql' | 'redis' | 'drizzle-sqlite' | 'drizzle-postgres' | 'prisma-postgres';

/** One server inside an app process. */
export interface Leg {
  readonly id: string;
  readonly framework: Framework;
  readonly store: StoreKind;
  readonly hasher: 'argon2' | 'scrypt';
  /** `sqlite:<file>`, a postgres:// or mysql:// URL (Kysely, Drizzle, Prisma stores), a redis:// URL. */
  readonly url?: string;
  readonly tableName?: string;
  readonly keyPrefix?: string;
  /** PostgreSQL: the schema of the leg's own tables. */
  readonly schema?: string;
}

export interface RunningApp {
  /** The base URL of each leg's server, by leg id. */
  readonly baseUrls: ReadonlyMap<string, string>;
  /** Whatever the app wrote to stderr so far (for a failure message). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node server.mjs|cjs` in the app and waits for every leg's port, or for the process to die.
 * `nodeBinary` runs the installed app under another Node line (the app's native addons must suit it).
 */
export function startApp(
  app: string,
  system: ModuleSystem,
  legs: readonly Leg[],
  extraEnv: NodeJS.ProcessEnv = {},
  nodeBinary: string = process.execPath,
): Promise<RunningApp> {
  const child = spawn(nodeBinary, [entryFile(system)], {
    cwd: app,
    env: childEnv({ ...extraEnv, NODE_ENV: 'production', SESSAUTH_APP_LEGS: JSON.stringify(legs) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const baseUrls = new Map<string, string>();
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!line.startsWith('{')) continue; // a dependency's own output
        const message = JSON.parse(line) as { leg?: string; port?: number; ready?: boolean };
        if (message.leg !== undefined) baseUrls.set(message.leg, `http://127.0.0.1:${message.port}`);
        if (message.ready === true) resolve({ baseUrls, stderr: () => stderr, stop });
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${join(app, entryFile(system))} exited (${code ?? signal}) before it was ready:\n${stderr}`)),
    );
  });
}
