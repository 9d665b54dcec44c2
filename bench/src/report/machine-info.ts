import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface MachineInfo {
  readonly date: string;
  readonly nproc: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly loadAverage: readonly number[];
}

export function machineInfo(): MachineInfo {
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

const PACKAGES = [
  '@sessauth/core',
  'express',
  'fastify',
  'koa',
  'hono',
  '@hono/node-server',
  'jose',
  'better-auth',
  'express-session',
  'connect-redis',
  'ioredis',
  'pg',
  'mysql2',
  'better-sqlite3',
  'kysely',
  '@node-rs/argon2',
  'autocannon',
] as const;

/** The installed version of every package a variant runs on. */
export function packageVersions(): Record<string, string> {
  const modules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
  const versions: Record<string, string> = {};
  for (const name of PACKAGES) {
    try {
      versions[name] = (JSON.parse(readFileSync(`${modules}${name}/package.json`, 'utf8')) as { version: string }).version;
    } catch {
      versions[name] = 'not installed';
    }
  }
  return versions;
}
