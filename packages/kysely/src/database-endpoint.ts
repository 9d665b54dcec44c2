import { parsePostgresHosts } from './postgres/postgres-hosts.js';

/**
 * Where a database URL points and why a connection to it failed, for an operator's
 * message: host and port only, never the URL (it may hold a password).
 */
export interface DatabaseEndpoint {
  readonly engine: 'PostgreSQL' | 'MySQL/MariaDB';
  /** `host:port`, the driver's defaults filled in. */
  readonly hostPort: string;
}

const DEFAULT_PORTS = { PostgreSQL: '5432', 'MySQL/MariaDB': '3306' } as const;

/** The endpoint of a `postgres://`, `postgresql://`, `mysql://` or `mariadb://` URL; undefined for SQLite or anything else. */
export function databaseEndpoint(url: string): DatabaseEndpoint | undefined {
  let hosts: ReturnType<typeof parsePostgresHosts>;
  try {
    hosts = parsePostgresHosts(url);
  } catch {
    return undefined;
  }
  if (hosts !== null && hosts.urls.length > 1) {
    // libpq's multi-host form, which URL cannot parse: every host, as listed.
    const each = hosts.urls.map((hostUrl) => databaseEndpoint(hostUrl));
    if (each.some((endpoint) => endpoint === undefined)) return undefined;
    return { engine: 'PostgreSQL', hostPort: each.map((endpoint) => endpoint?.hostPort).join(',') };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  const engine =
    scheme === 'postgres' || scheme === 'postgresql' ? 'PostgreSQL' : scheme === 'mysql' || scheme === 'mariadb' ? 'MySQL/MariaDB' : undefined;
  if (engine === undefined) return undefined;
  const host = parsed.hostname === '' ? 'localhost' : parsed.hostname;
  return { engine, hostPort: `${host}:${parsed.port === '' ? DEFAULT_PORTS[engine] : parsed.port}` };
}

/**
 * `what` failed against `endpoint`, with the driver's reason and the likely fix. The
 * reason of a connection error names the address it tried, never the credentials.
 */
export function describeDatabaseFailure(what: string, endpoint: DatabaseEndpoint, error: unknown): string {
  const root = rootCause(error);
  const reason = root instanceof Error ? root.message : String(root);
  const code = typeof root === 'object' && root !== null ? String((root as { code?: unknown }).code ?? '') : '';
  const hint = hintFor(endpoint, code, reason);
  return `${what}: ${endpoint.engine} at ${endpoint.hostPort} (${reason})${hint === '' ? '' : `: ${hint}`}`;
}

function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current;
}

function hintFor(endpoint: DatabaseEndpoint, code: string, reason: string): string {
  if (code === 'ECONNREFUSED' || reason.includes('ECONNREFUSED')) {
    return `nothing listens there; is ${endpoint.engine} running, and are the host and port in the URL right?`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve; check the host in the URL';
  if (code === 'ETIMEDOUT' || /timeout/i.test(reason)) {
    return 'no answer in time; is the host reachable from here (firewall, security group, VPN)?';
  }
  if (code === '28P01' || code === '28000' || code === 'ER_ACCESS_DENIED_ERROR') return 'the server refused the user or password in the URL';
  if (code === '3D000' || code === 'ER_BAD_DB_ERROR') return 'the database named in the URL does not exist; create it first';
  return '';
}
