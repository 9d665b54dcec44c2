// The JSON bodies of the endpoints, declared once: the core builds them, the
// conformance suites read them, and the browser client's own copy
// (`@sessauth/client`, which must not depend on the core) is pinned to them by a
// type test in packages/client/test.

import type { ErrorCode } from '../errors/error-codes.js';
import type { Location } from '../geo/location.js';

/** The 200 of `GET {prefix}/csrf/`: the masked token to send back in `X-CSRFToken`. */
export interface CsrfResponseBody {
  csrf_token: string;
}

/**
 * The 200 of `POST {prefix}/login/` and `POST {prefix}/refresh/`. `refresh_token`
 * is there in `body` and `both` transport; in `cookie` transport it travels only in
 * the HttpOnly refresh cookie.
 */
export interface TokenResponseBody {
  access_token: string;
  refresh_token?: string;
  /**
   * `"DPoP"` when the session is bound to a DPoP key (JWT_DPOP, RFC 9449 s5): send the access
   * token as `Authorization: DPoP <token>` with a proof. Absent for every unbound session.
   */
  token_type?: 'DPoP';
}

/**
 * Every error answer of the endpoints and guards. `message` is a fixed text per code
 * (never request data); JWT Ninja sends `error_code` alone, so a client should not
 * require `message`.
 */
export interface ErrorResponseBody {
  error_code: ErrorCode;
  message: string;
}

/** One row of `GET {prefix}/sessions/` (the body is an array of them, newest first). */
export interface PublicSession {
  id: string;
  /** ISO 8601 in UTC, e.g. `2026-01-31T12:00:00.000Z`. */
  created_at: string;
  last_activity_at: string;
  /** Null when `JWT_PERSIST_CLIENT_IP` is off. */
  ip_address: string | null;
  user_agent: string | null;
  /** `"<browser> on <OS>"` without versions, or null. */
  browser: string | null;
  location: Location | null;
  /** True on the row of the session making the request: "this device". */
  is_current: boolean;
  /** The device name given with `PATCH {prefix}/sessions/{id}/`; null until named. */
  name: string | null;
  /** The session's absolute end (ISO 8601, UTC); null for a session that never ages out (JWT_SESSION_EXPIRE_SECONDS=0). */
  expires_at: string | null;
  /**
   * Only with JWT_SESSION_ACTIVITY on (absent otherwise): the address of the last client
   * recorded in the session's activity history (login or a refresh from a new address);
   * `ip_address` stays the login's.
   */
  last_ip_address?: string | null;
  /** Only with JWT_SESSION_ACTIVITY on: the browser of the last client recorded; `browser` stays the login's. */
  last_browser?: string | null;
}

/**
 * One entry of `GET {prefix}/sessions/{id}/activity/` (JWT_SESSION_ACTIVITY), oldest first.
 * `kind` is what happened; `detail` is its one detail: the reason of `revoked`, the new name
 * of `renamed`, the methods of `stepped_up` (comma-separated), the signal of `risk_signal`.
 */
export interface PublicActivityEntry {
  kind: 'created' | 'refreshed' | 'stepped_up' | 'renamed' | 'revoked' | 'reuse_detected' | 'risk_signal';
  /** ISO 8601 in UTC. */
  at: string;
  /** The client's address; null when unknown, unchanged since the last entry, or JWT_PERSIST_CLIENT_IP is off. */
  ip_address: string | null;
  /** The client's `"<browser> on <OS>"`; null when unknown or unchanged since the last entry. */
  browser: string | null;
  location: Location | null;
  detail: string | null;
}

/** The body of `PATCH {prefix}/sessions/{id}/`: the new device name (trimmed, 1..64 characters, no control characters). */
export interface RenameSessionRequestBody {
  name: string;
}

/** `POST {prefix}/reauthenticate/`: the caller's current password. */
export interface ReauthenticateRequestBody {
  password: string;
}

/** `POST {prefix}/reauthenticate/` 200: a fresh access token carrying `auth_time`; the refresh token is unchanged. */
export interface ReauthenticateResponseBody {
  access_token: string;
  /** `"DPoP"` for a session bound to a DPoP key, as in `TokenResponseBody`. */
  token_type?: 'DPoP';
}
