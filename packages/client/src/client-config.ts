import type { ChannelLike, LockManagerLike, RefreshTransport, SessauthClientOptions } from './types.js';

/** The options with defaults applied and the API's URLs worked out. */
export interface ClientConfig {
  readonly apiOrigin: string;
  /** An auth endpoint's URL, `path` below the prefix (`login/`). */
  authUrl(path: string): string;
  /** A request target for `client.fetch`: relative URLs resolve against `baseUrl` when one is set. */
  resolve(input: RequestInfo | URL): RequestInfo | URL;
  readonly transport: RefreshTransport;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly aheadMs: number;
  readonly peerWaitMs: number;
  readonly refreshTimeoutMs: number;
  readonly csrfCookieName: string;
  readonly autoRefresh: boolean;
  readonly locks: LockManagerLike | null;
  readonly channel: ChannelLike | null;
  /** Names the lock and the channel: one per API (origin + prefix). */
  readonly key: string;
  /** Sign RFC 9449 proofs with a key held in IndexedDB (the `dpop` option). */
  readonly dpop: boolean;
}

export function resolveClientConfig(options: SessauthClientOptions): ClientConfig {
  const page = typeof location === 'undefined' ? undefined : location.href;
  if (options.baseUrl === undefined && page === undefined) throw new TypeError('sessauth: pass baseUrl outside a browser');
  const base = new URL(options.baseUrl ?? '/', page);
  const basePath = base.pathname.replace(/\/+$/, '');
  const prefix = `/${(options.prefix ?? '/auth').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const authRoot = `${base.origin}${basePath}${prefix}/`;
  const transport = options.transport ?? 'cookie';
  if (transport !== 'cookie' && transport !== 'body') throw new TypeError(`sessauth: unknown transport "${String(transport)}"`);
  // Body transport keeps the refresh token in a storage each client owns: coordinate only when
  // told to. Outside a browser there are no tabs, and a BroadcastChannel would keep Node alive.
  const inBrowser = typeof window !== 'undefined' && typeof document !== 'undefined';
  const crossTab = options.crossTab ?? (transport === 'cookie' && inBrowser);
  const key = `sessauth:${authRoot}`;
  const dpop = options.dpop ?? false;
  // WebCrypto exists only in a secure context (HTTPS, or localhost): say so now, not at the first login.
  if (dpop && globalThis.crypto?.subtle === undefined)
    throw new TypeError('sessauth: dpop needs WebCrypto (crypto.subtle): serve the page over HTTPS');
  return {
    apiOrigin: base.origin,
    authUrl: (path) => `${authRoot}${path}`,
    resolve: (input) => (options.baseUrl !== undefined && (typeof input === 'string' || input instanceof URL) ? new URL(input, base) : input),
    transport,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    now: options.now ?? Date.now,
    aheadMs: positive(options.refreshAheadSeconds, 30, 'refreshAheadSeconds') * 1000,
    peerWaitMs: positive(options.peerWaitMs, 150, 'peerWaitMs'),
    refreshTimeoutMs: positive(options.refreshTimeoutMs, 15_000, 'refreshTimeoutMs'),
    csrfCookieName: options.csrfCookieName ?? 'csrftoken',
    autoRefresh: options.autoRefresh ?? false,
    locks: !crossTab ? null : options.locks !== undefined ? options.locks : (globalThis.navigator?.locks ?? null),
    channel: !crossTab ? null : options.channel !== undefined ? (options.channel?.(key) ?? null) : defaultChannel(key),
    key,
    dpop,
  };
}

function defaultChannel(name: string): ChannelLike | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(name);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`sessauth: ${name} must be a non-negative number`);
  return value;
}
