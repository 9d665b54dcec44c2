import type { Clock } from './clock.js';
import type { GeolocationProvider } from './geo/location.js';
import type { SessauthRequest, SessauthResponse } from './http/sessauth-request.js';
import type { Logger } from './logger.js';
import type { ResolvedOptions, SessauthOptions } from './options/options.js';
import type { RateLimitStore, SessionRecord, SessionStore } from './store/store-port.js';
import type { Authenticator, UserPort } from './users/user-port.js';

/** Everything the engine needs; only `options`, `store`, `users` and `authenticator` are required. */
export interface SessauthConfig<U> {
  /** Raw options (validated here) or the result of `resolveOptions`. */
  options: SessauthOptions | ResolvedOptions;
  store: SessionStore;
  users: UserPort<U>;
  /** How `POST /auth/login/` turns a body into a user (see `createPasswordAuthenticator`). */
  authenticator: Authenticator<U>;
  /** Shared counters for throttling. @default an in-memory store (one process only). */
  rateLimitStore?: RateLimitStore;
  /** Off unless given. */
  geolocation?: GeolocationProvider | null;
  /** Who may open the admin listing. @default nobody */
  isAdmin?: (user: U) => boolean;
  clock?: Clock;
  logger?: Logger;
}

/** What a protected host route receives. */
export interface AuthContext<U> {
  readonly user: U;
  readonly session: SessionRecord;
}

/** Input of the per-request guard: just the headers it needs, no body, no Request. */
export interface AuthenticateInput {
  /** Every `Authorization` header value received (more than one fails closed). */
  readonly authorization: readonly string[] | undefined;
}

export interface Sessauth<U> {
  readonly options: ResolvedOptions;
  /**
   * Serve the seven endpoints (and the admin listing). Resolves `null` when the path
   * is not one of ours, so the adapter passes the request on.
   */
  handle(request: SessauthRequest): Promise<SessauthResponse | null>;
  /** The guard of host routes: one token verification, one store read. Throws `SessauthError`. */
  authenticate(input: AuthenticateInput): Promise<AuthContext<U>>;
  /** The JSON error response for a thrown value (a non-SessauthError is logged and becomes 500). */
  errorResponse(error: unknown): SessauthResponse;
  /** Server-side invalidate-all (for example after a password change): one bulk update. */
  invalidateAllForUser(userId: string): Promise<number>;
  /** Delete revoked and naturally expired sessions. */
  purgeExpired(): Promise<number>;
}
