import type { AuthenticateInput, GuardRequest } from '../endpoints/bearer-guard.js';
import type { AuthContext } from '../sessions/authenticate.js';
import type { FreshnessRule } from '../sessions/freshness.js';
import type { Clock } from '../time/clock.js';
import type { GeolocationProvider } from '../geo/location.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { Logger } from '../log/logger.js';
import type { OpenApiSettings } from '../openapi/openapi-document.js';
import type { SetPassword } from '../endpoints/change-password.js';
import type { SessauthEventHandler, SessauthEventHandlers, SessauthEventName } from '../events/session-events.js';
import type { SessionApi } from './session-api.js';
import type { SessauthInstrumentation } from './instrumentation.js';
import type { RateLimitResult } from './rate-limit-api.js';
import type { ResolvedOptions, SessauthOptions } from '../options/options.js';
import type { RateLimitStore, SessionStore } from '../store/store-port.js';
import type { Authenticator, UserPort } from '../users/user-port.js';

/** Everything the engine needs; only `options`, `store` and `users` are required. */
export interface SessauthConfig<U> {
  /** Raw options (validated here) or the result of `resolveOptions`. */
  options: SessauthOptions | ResolvedOptions;
  store: SessionStore;
  users: UserPort<U>;
  /**
   * How `POST /auth/login/` turns a body into a user (see `createPasswordAuthenticator`).
   * Absent: there is no login endpoint (its path answers 404 and the OpenAPI description
   * leaves it out); sessions start only through `createSessionFor` (a magic link, SSO).
   * The admin listing's sign-in and `changePassword` need one.
   */
  authenticator?: Authenticator<U>;
  /**
   * Start even though the login's password hasher costs less than OWASP's minimum (a warning
   * instead of an `IntegrationError`). For tests and migrations only. @default false
   */
  allowWeakPasswordHasher?: boolean;
  /** Shared counters for throttling. @default an in-memory store (one process only). */
  rateLimitStore?: RateLimitStore;
  /** Off unless given. */
  geolocation?: GeolocationProvider | null;
  /**
   * Turns the read-only admin listing on, under `adminPrefix`, for the users `isAdmin`
   * accepts. Off by default: a default install has one login endpoint, not two. Needs a
   * store with `listSessionsForAdmin`.
   */
  admin?: { readonly isAdmin: (user: U) => boolean };
  clock?: Clock;
  logger?: Logger;
  /**
   * Handlers of the session lifecycle (`login` with new-device/new-location flags, `refresh`,
   * `revoke`, `reuse_detected`, `login_failed`). They run after the commit and after the
   * response, never delay or fail it (errors are logged), and never see a token or password.
   */
  events?: SessauthEventHandlers;
  /**
   * An observer of the engine's operations and store calls, for traces and metrics
   * (`sessauthOpenTelemetry()` from `@sessauth/opentelemetry`). Off unless given; absent, the
   * guard and the stores are called exactly as before, with nothing in between.
   */
  instrumentation?: SessauthInstrumentation;
}

/** The engine a host app holds; the server-side session API (`createSessionFor`, `listSessions`, ...) is in `SessionApi`. */
export interface Sessauth<U> extends SessionApi {
  readonly options: ResolvedOptions;
  /** What `openApiDocument` (`@sessauth/core/openapi`) needs to describe this instance exactly: the options, and whether the login route exists. */
  readonly openApiSettings: OpenApiSettings;
  /**
   * Serve the endpoints (and the admin listing). Resolves `null` when the path
   * is not one of ours, so the adapter passes the request on.
   */
  handle(request: SessauthRequest): Promise<SessauthResponse | null>;
  /**
   * True when `handle` may answer this request target (path, optionally with its query):
   * it lies under the API prefix or the admin prefix. Adapters call it first so host
   * routes pay nothing for translating a request the core would hand back. With the
   * framework's `mountPath` (see `SessauthRequest.mountPath`), `target` is the full path.
   */
  handles(target: string, mountPath?: string): boolean;
  /** The guard of host routes: one token verification, one store read. Throws `SessauthError`. */
  authenticate(input: AuthenticateInput): Promise<AuthContext<U>>;
  /**
   * The guard of routes that work with or without a user: null when the request carries
   * no `Authorization` header at all; otherwise exactly `authenticate` (a bad or expired
   * token is still its 401, so a client knows to refresh instead of silently losing its user).
   * With the access-token cookie on, a cookie that no longer authenticates is null too (a page
   * load has no client to refresh); its CSRF refusal is still the 403.
   */
  authenticateOptional(input: AuthenticateInput): Promise<AuthContext<U> | null>;
  /**
   * Freshness for a sensitive host route (RFC 9470), after the guard: throws
   * `SessauthError('insufficient_user_authentication')` (401, with the
   * `WWW-Authenticate: Bearer error="insufficient_user_authentication"` challenge naming
   * `max_age` / `acr_values`) when the session's last proof of identity is older than
   * `maxAgeSeconds` or did not reach one of `acr`. Read from the session row the guard
   * fetched: no extra store call. The adapters' `requireFresh(auth, rule)` wrap it.
   */
  assertFresh(context: AuthContext<U>, rule: FreshnessRule): void;
  /** The JSON error response for a thrown value (a non-SessauthError is logged and becomes 500). */
  errorResponse(error: unknown): SessauthResponse;
  /**
   * A password change for a host route behind the guard (`{"current_password", "new_password"}`,
   * JSON only): re-checks the current password under the login throttle, requires 8 to
   * JWT_MAX_PASSWORD_LENGTH characters, calls `setPassword`, then ends every session of the
   * user. Needs `users.usernameOf`. Resolves the response to send (200 empty, or the error).
   */
  changePassword(request: SessauthRequest, caller: AuthContext<U>, setPassword: SetPassword<U>): Promise<SessauthResponse>;
  /**
   * One hit of a host-defined budget (`auth.rateLimit('otp:' + userId, '5/min')`) on the same
   * shared rate-limit store as the login throttle, in a fixed window. Resolves
   * `{ allowed, limit, remaining, resetAt, retryAfter }`; a malformed rate or key throws an
   * `IntegrationError`; a store fault rejects with `SessauthError('service_unavailable')` (503,
   * fail closed). Rate `"0"` never limits.
   */
  rateLimit(key: string, rate: string): Promise<RateLimitResult>;
  /** Adds an event handler (see `SessauthConfig.events`); returns its removal. */
  on<E extends SessauthEventName>(name: E, handler: SessauthEventHandler<E>): () => void;
  /** Delete revoked and naturally expired sessions. */
  purgeExpired(): Promise<number>;
  /**
   * Resolves when every event handler run so far has finished. Event handlers run after the
   * response; a Workers runtime stops a request's work at its response, so hand this to
   * `ctx.waitUntil` there (the fetch adapter does when given `ctx`).
   */
  eventsSettled(): Promise<void>;
  /**
   * The Shared Signals transmitter (JWT_SSF_TRANSMITTER, docs/shared-signals.md); absent when
   * it is off. Its delivery loop runs by itself; these are for a host that shuts down cleanly
   * or wants to push what is due now.
   */
  readonly securityEvents?: SecurityEventsControl;
}

/** Control of the Shared Signals transmitter's delivery loop. */
export interface SecurityEventsControl {
  /** One pass over the outbox now: pushes every SET due; resolves with how many rows it settled. */
  deliverDue(): Promise<number>;
  /** Stops the loop (the outbox keeps what is not delivered: the next start sends it). */
  stop(): Promise<void>;
}

export type { AuthContext, AuthenticateInput, FreshnessRule, GuardRequest };
