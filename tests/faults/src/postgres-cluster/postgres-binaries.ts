import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's PostgreSQL server programs, and the OS user that runs them. */
export interface PostgresBinaries {
  readonly binDir: string;
  /** Run the servers as this user when the tests run as root (postgres refuses root). */
  readonly runAs: { readonly uid: number; readonly gid: number } | undefined;
}

const NEEDED = ['initdb', 'postgres', 'pg_basebackup'] as const;

/**
 * The newest `/usr/lib/postgresql/<major>/bin` that has initdb, postgres and
 * pg_basebackup (`SESSAUTH_PG_BIN` overrides); throws when there is none (the
 * caller turns that into a loud skip, or a failure under SESSAUTH_REQUIRE_SERVICES=1).
 */
export function findPostgresBinaries(): PostgresBinaries {
  const binDir = process.env.SESSAUTH_PG_BIN ?? newestDebianBinDir();
  if (binDir === undefined) throw new Error('no /usr/lib/postgresql/<major>/bin (apt-get install postgresql)');
  const missing = NEEDED.filter((name) => !existsSync(join(binDir, name)));
  if (missing.length > 0) throw new Error(`${binDir} lacks ${missing.join(', ')}`);
  return { binDir, runAs: process.getuid?.() === 0 ? postgresUser() : undefined };
}

function newestDebianBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/** The `postgres` OS user from /etc/passwd (Debian's packages create it). */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('running as root, and there is no "postgres" OS user to run PostgreSQL as');
  return { uid: Number(uid), gid: Number(gid) };
}
