/**
 * How the refresh token travels. `cookie` (browsers): an HttpOnly cookie plus CSRF;
 * the page never sees the refresh token. `body` (React Native, CLIs, tests): the
 * token is in the JSON and kept in a `TokenStorage`.
 */
export type RefreshTransport = 'cookie' | 'body';

/**
 * Where body transport keeps the refresh token: secure storage on a phone, a file
 * for a CLI. Read under the refresh lock, written before the lock is released, so
 * clients that share a storage (and a lock) never present the same token twice.
 */
export interface TokenStorage {
  get(): string | null | Promise<string | null>;
  /** `null` forgets the token (logout, or an outcome that is not known). */
  set(refreshToken: string | null): void | Promise<void>;
}

/** Why the client is signed out. */
export type SignOutReason =
  /** This device (or "everywhere") signed out on purpose. */
  | 'logout'
  /** The session was ended elsewhere: another device, a password change, an admin. */
  | 'revoked'
  /** The server saw a refresh token presented twice and revoked the session. */
  | 'reuse_detected'
  /** The session or its refresh token reached its end, or there is none. */
  | 'expired'
  /** A refresh response was lost: the old token may be spent, so it is never retried. */
  | 'ambiguous';

/** Which tab caused an event: this one, or another tab of the same origin. */
export type TabSource = 'this-tab' | 'other-tab';

/** The typed events of `client.on(...)`. */
export interface SessauthClientEvents {
  'signed-in': { readonly via: 'login' | 'restore' | 'other-tab'; readonly expiresAt: Date };
  refreshed: { readonly source: TabSource; readonly expiresAt: Date };
  'signed-out': { readonly reason: SignOutReason; readonly source: TabSource };
  /**
   * A route answered 401 `insufficient_user_authentication` (RFC 9470): the session is fine but
   * its sign-in is too old (`maxAgeSeconds`) or too weak (`acrValues`). Ask for the password and
   * call `stepUp(password)`, then retry. Nobody is signed out.
   */
  'step-up-required': { readonly url: string; readonly maxAgeSeconds: number | null; readonly acrValues: readonly string[] };
}

export type SessauthClientEventName = keyof SessauthClientEvents;

/** `client.status`: `unknown` until `restore()` or `login()` has decided. */
export type ClientStatus = 'unknown' | 'signed-in' | 'signed-out';

/**
 * The subset of the Web Locks API the client uses (`navigator.locks`). Without
 * `query`, tabs still take turns, but learn of each other's results only through
 * the channel, which may deliver after the lock was granted (see the README).
 */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  query?(): Promise<{ held?: ReadonlyArray<{ name?: string }> }>;
}

/** The subset of `BroadcastChannel` the client uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export interface SessauthClientOptions {
  /** Origin (and optional path) of the API. @default the page's origin */
  baseUrl?: string;
  /** Where the auth endpoints live. @default '/auth' */
  prefix?: string;
  /** @default 'cookie' */
  transport?: RefreshTransport;
  /** Body transport only: where the refresh token lives. @default memory (lost on restart) */
  storage?: TokenStorage;
  /** Name of the server's readable CSRF cookie. @default 'csrftoken' */
  csrfCookieName?: string;
  /**
   * Refresh this long before the access token expires (capped at a quarter of its
   * lifetime, so short-lived tokens still get most of their life). @default 30
   */
  refreshAheadSeconds?: number;
  /** Keep the access token fresh with a timer, even without requests. @default false */
  autoRefresh?: boolean;
  /**
   * Coordinate with other tabs of this origin (Web Locks + BroadcastChannel). Ignored
   * where either API is missing (then only this tab is single-flight). @default true in a
   * browser with cookie transport; false elsewhere (no tabs, and a channel would keep Node alive)
   */
  crossTab?: boolean;
  /** Give up on a refresh after this long; the outcome is then ambiguous. @default 15000 */
  refreshTimeoutMs?: number;
  /** How long a freshly opened tab waits for another tab's token. @default 150 */
  peerWaitMs?: number;
  /**
   * Bind the session to a key this browser holds (DPoP, RFC 9449; the server's `JWT_DPOP`): a
   * non-extractable ECDSA P-256 key made at sign-in, kept in IndexedDB for every tab of the origin,
   * signs a proof for the login, each refresh and each request with the access token. A token
   * copied out of the page is then useless elsewhere. Deleted when the session ends. Needs a
   * secure context (HTTPS or localhost). @default false
   */
  dpop?: boolean;
  /** Injection points for non-browser runtimes and tests. */
  fetch?: typeof fetch;
  locks?: LockManagerLike | null;
  channel?: ((name: string) => ChannelLike) | null;
  now?: () => number;
}

// The wire shapes below are the client's own copy of the core's (`Location`,
// `PublicSession` in @sessauth/core): the client must not depend on the core at run
// time. test/wire-types.test.ts pins them to the core's, so the two cannot drift.

/** Where a session's login IP appeared to be (fields set only when known). */
export interface SessionLocation {
  city?: string;
  region?: string;
  country?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

/** One row of `GET /auth/sessions/`: one signed-in device. */
export interface SessionInfo {
  id: string;
  created_at: string;
  last_activity_at: string;
  ip_address: string | null;
  user_agent: string | null;
  /** "Chrome on Linux" (no versions), or null. */
  browser: string | null;
  location: SessionLocation | null;
  /** True on the row of the session making the request: "this device". */
  is_current: boolean;
  /** The device name given with `renameSession`; null until named. */
  name: string | null;
  /** The session's absolute end (ISO 8601, UTC); null when it never ages out. */
  expires_at: string | null;
  /** Only when the server keeps the activity history (JWT_SESSION_ACTIVITY): the last client's address; `ip_address` stays the login's. */
  last_ip_address?: string | null;
  /** Only with the activity history on: the last client's browser; `browser` stays the login's. */
  last_browser?: string | null;
}
