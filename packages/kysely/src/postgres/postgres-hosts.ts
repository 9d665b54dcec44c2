/**
 * Which kind of server a connection may end on, as libpq's `target_session_attrs`:
 * `read-write` (`SHOW transaction_read_only` is off: a primary) or `any` (the first
 * host that accepts the connection). The store writes, so a standby is never a target.
 */
export type TargetSessionAttrs = 'any' | 'read-write';

/** A PostgreSQL URL split into one connection string per host, in the order given. */
export interface PostgresHosts {
  /** One `postgres://` URL per host, each without `target_session_attrs` (pg does not know it). */
  readonly urls: readonly string[];
  /** `host:port` of each host, for messages (never the credentials). */
  readonly hostPorts: readonly string[];
  readonly targetSessionAttrs: TargetSessionAttrs;
}

const TARGET_PARAMETER = 'target_session_attrs';

/**
 * Parses libpq's multi-host form `postgres://user:pw@host1:5432,host2:5433/db?target_session_attrs=read-write`
 * (node-postgres takes one host only). Returns null for a plain one-host URL without
 * `target_session_attrs`: that URL goes to `pg` untouched, as before.
 *
 * A URL with more than one host must name `target_session_attrs` (`read-write` for a
 * primary and its standbys; `any` only if every host takes writes): libpq's default
 * (`any`) would connect the store to a standby, where every write fails.
 */
export function parsePostgresHosts(url: string): PostgresHosts | null {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/i.exec(url);
  if (match === null) return null;
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);
  const { rest: restWithout, value } = withoutTargetParameter(rest);
  const hosts = hostList.split(',');
  if (hosts.length === 1 && value === undefined) return null;
  if (hosts.some((host) => host === '')) throw new TypeError('@sessauth/kysely: the PostgreSQL URL has an empty host in its host list');
  if (value === undefined) {
    throw new TypeError(
      `@sessauth/kysely: a PostgreSQL URL with ${hosts.length} hosts needs ${TARGET_PARAMETER}=read-write (the store writes; libpq's default "any" may pick a standby)`,
    );
  }
  if (value !== 'read-write' && value !== 'any') {
    throw new TypeError(`@sessauth/kysely: ${TARGET_PARAMETER} must be read-write or any (got "${value}"): the store writes`);
  }
  return {
    urls: hosts.map((host) => `${scheme}${userinfo}${host}${restWithout}`),
    hostPorts: hosts.map((host) => (/:\d+$/.test(host) ? host : `${host}:5432`)),
    targetSessionAttrs: value,
  };
}

/** `rest` (path and query) without the `target_session_attrs` parameter, and its value. */
function withoutTargetParameter(rest: string): { rest: string; value: string | undefined } {
  const question = rest.indexOf('?');
  if (question === -1) return { rest, value: undefined };
  const hash = rest.indexOf('#', question);
  const query = rest.slice(question + 1, hash === -1 ? undefined : hash);
  let value: string | undefined;
  const kept = query.split('&').filter((pair) => {
    const [key = '', raw = ''] = pair.split('=');
    if (decodeURIComponent(key) !== TARGET_PARAMETER) return true;
    value = decodeURIComponent(raw);
    return false;
  });
  const path = rest.slice(0, question);
  return { rest: kept.length === 0 ? path : `${path}?${kept.join('&')}`, value };
}
