/**
 * What an operator needs from a failed Redis connection: where it tried (host and port,
 * never the URL, which may hold a password), why, and the likely fix.
 */
export function describeConnectionFailure(what: string, endpoint: RedisEndpoint, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return `${what}: could not connect to ${endpoint.hostPort} (${reason})${hintFor(endpoint, String(code ?? ''), reason)}`;
}

export interface RedisEndpoint {
  /** `host:port`, or a comma-separated list for a cluster's seed nodes. */
  readonly hostPort: string;
  /** Whether the URL asked for TLS (`rediss://`); undefined when unknown. */
  readonly tls: boolean | undefined;
}

/** The host and port of a `redis://` / `rediss://` URL (defaults 127.0.0.1:6379), never its credentials. */
export function endpointOfUrl(url: string): RedisEndpoint {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname === '' ? '127.0.0.1' : parsed.hostname;
    return { hostPort: `${host}:${parsed.port === '' ? '6379' : parsed.port}`, tls: parsed.protocol === 'rediss:' };
  } catch {
    return { hostPort: 'an unparseable URL', tls: undefined };
  }
}

function hintFor(endpoint: RedisEndpoint, code: string, reason: string): string {
  if (code === 'ECONNREFUSED' || reason.includes('ECONNREFUSED')) {
    const scheme = endpoint.tls === true ? 'rediss:// (TLS)' : 'redis:// (plain; a TLS server needs rediss://)';
    return `: nothing listens there; is Redis running, and are the host and port right? The URL's scheme is ${scheme}`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || reason.includes('ENOTFOUND')) return ': the host name does not resolve';
  if (/WRONGPASS|NOAUTH|invalid password/i.test(reason)) return ': check the user and password in the URL';
  if (endpoint.tls === true && /SSL|TLS|wrong version number|packet length/i.test(reason)) {
    return ': the server does not speak TLS here; use redis:// (or the TLS port) instead of rediss://';
  }
  if (endpoint.tls === false) return ': if the server requires TLS (managed Redis often does), use rediss:// instead of redis://';
  if (endpoint.tls === true) return ': if the server does not use TLS, use redis:// instead of rediss://';
  return '';
}
