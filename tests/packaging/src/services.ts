import { connect } from 'node:net';
import { reachService } from '@sessauth/conformance';
import { WORKSPACE_ROOT } from './pack-workspace.js';
import { runCommand } from './run-command.js';

/** The registry npm is configured with (the user's .npmrc, npm_config_registry, else npmjs). */
export async function npmRegistryUrl(): Promise<string> {
  const { stdout } = await runCommand('npm', ['config', 'get', 'registry'], { cwd: WORKSPACE_ROOT });
  const url = stdout.trim();
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * The registry answers a package document: the installs can run. Unreachable, the
 * suite skips with a loud line, or fails under SESSAUTH_REQUIRE_SERVICES=1 (CI).
 */
export function reachNpmRegistry(url: string): Promise<string | null> {
  return reachService(`the npm registry (${url})`, async () => {
    const response = await fetch(`${url}semver`, { headers: { accept: 'application/vnd.npm.install-v1+json' }, signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    await response.body?.cancel();
    return url;
  });
}

function tcpProbe(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve(url);
    });
    socket.setTimeout(3000, () => socket.destroy(new Error('no answer in 3 s')));
    socket.once('error', reject);
  });
}

/** The database and Redis servers the apps' SQL and Redis legs use, when they are up. */
export interface ServiceUrls {
  readonly postgres: string | null;
  readonly mysql: string | null;
  readonly redis: string | null;
}

export async function reachDataServices(): Promise<ServiceUrls> {
  const postgres = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const mysql = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  return {
    postgres: await reachService(`PostgreSQL ${new URL(postgres).host}`, () => tcpProbe(postgres)),
    mysql: await reachService(`MariaDB/MySQL ${new URL(mysql).host}`, () => tcpProbe(mysql)),
    redis: await reachService(`Redis ${new URL(redis).host}`, () => tcpProbe(redis)),
  };
}
