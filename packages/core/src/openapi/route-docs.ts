import type { ErrorCode } from '../errors/error-codes.js';
import type { DpopMode, RefreshTokenTransport } from '../options/options.js';
import type { RouteName } from '../endpoints/endpoints.js';

/** The settings a description depends on. */
export interface DocSettings {
  readonly transport: RefreshTokenTransport;
  readonly refreshCookieName: string;
  readonly refreshCookiePath: string;
  readonly csrfCookieName: string;
  /** The access-token cookie's name when JWT_ACCESS_TOKEN_COOKIE is on, else null. */
  readonly accessCookieName: string | null;
  /** JWT_DPOP: on (`allowed`, `required`), login, refresh and every guarded route read a `DPoP` proof. */
  readonly dpop: DpopMode;
  /** JWT_DEVICE_BOUND_COOKIES in effect: the DBSC routes exist and a bound session's refresh reads its bound cookie. */
  readonly deviceBound: boolean;
}

/** An error an operation can answer; the status defaults to the code's in `ERROR_STATUS`. */
export type ErrorCase = ErrorCode | readonly [ErrorCode, number];

export interface SuccessDoc {
  readonly description: string;
  /** A component schema name and the media type; none for an empty body. */
  readonly body?: { readonly schema: string; readonly mediaType: string };
  /** Names of the cookies the answer may set. */
  readonly setCookies: readonly string[];
  /** A cacheable answer (no `no-store`). */
  readonly cacheable?: boolean;
  /** The success status, when not 200. */
  readonly status?: number;
}

/** How one endpoint is described, per settings. */
export interface RouteDoc {
  readonly summary: string;
  readonly description: string;
  /** Needs `Authorization: Bearer <access token>`. */
  readonly bearer: boolean;
  /** The component schema of the JSON body, if it takes one. */
  readonly requestBody?: (s: DocSettings) => { readonly schema: string; readonly required: boolean } | undefined;
  /** Cookies, headers and query parameters read besides `Authorization`. */
  readonly reads?: (s: DocSettings) => readonly { readonly in: 'cookie' | 'header' | 'query'; readonly name: string; readonly description: string }[];
  readonly success: (s: DocSettings) => SuccessDoc;
  readonly errors: (s: DocSettings) => readonly ErrorCase[];
  /** Reads a `DPoP` proof when JWT_DPOP is on (login and refresh; every `bearer` route does too). */
  readonly dpopProof?: boolean;
  /** Cookies an error answer may set (the refresh cookie cleared after a dead session). */
  readonly errorSetCookies?: (s: DocSettings) => readonly string[];
}

const cookieMode = (s: DocSettings) => s.transport !== 'body';

// The guard of every Bearer endpoint (session/authenticate.ts), a store fault included.
const GUARD: readonly ErrorCase[] = [
  'invalid_request',
  'invalid_token',
  'expired_token',
  'invalid_token_type',
  'invalid_user',
  'session_not_found',
  'session_expired',
  'service_unavailable',
];

// Login and refresh: 415, 403 CSRF (cookie transports), 429 and a limiter fault, then the body.
const tokenPrechecks = (s: DocSettings): ErrorCase[] => [
  'unsupported_media_type',
  ...(cookieMode(s) ? (['csrf_failed'] as const) : []),
  'rate_limited',
  'service_unavailable',
  'payload_too_large',
  'invalid_request',
];

const csrfReads = (s: DocSettings) =>
  cookieMode(s)
    ? [
        { in: 'cookie' as const, name: s.csrfCookieName, description: 'The CSRF secret set by GET csrf/.' },
        { in: 'header' as const, name: 'X-CSRFToken', description: 'The masked token from GET csrf/ (double submit).' },
      ]
    : [];

// JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS (RFC 9470): the bulk logouts refuse a stale session.
const STALE =
  ' With JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS set, a session whose last sign-in or re-authentication is older answers 401 insufficient_user_authentication with `WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=...`.';

const accessCookie = (s: DocSettings) => (s.accessCookieName === null ? [] : [s.accessCookieName]);
const clearsCookie = (s: DocSettings) =>
  cookieMode(s) ? [s.refreshCookieName, ...accessCookie(s), ...(s.deviceBound ? [`${s.refreshCookieName}_bound`] : [])] : [];

const accessCookieNote = (s: DocSettings) =>
  s.accessCookieName === null
    ? ''
    : ` The access token also in the HttpOnly SameSite=Lax \`${s.accessCookieName}\` cookie (Path /), which host routes read without Authorization.`;

const tokens = (s: DocSettings): SuccessDoc => ({
  description: cookieMode(s)
    ? `The token pair: the refresh token in the HttpOnly \`${s.refreshCookieName}\` cookie (Path ${s.refreshCookiePath})${s.transport === 'both' ? ' and in the body' : ''}.${accessCookieNote(s)}`
    : 'The token pair, both in the body.',
  body: { schema: 'TokenResponse', mediaType: 'application/json' },
  setCookies: clearsCookie(s),
});

const ended =
  (what: string) =>
  (s: DocSettings): SuccessDoc => ({
    description: `${what}; empty body.${cookieMode(s) ? ` Clears the refresh cookie${s.accessCookieName === null ? '' : ' and the access-token cookie'}.` : ''}`,
    setCookies: clearsCookie(s),
  });

/**
 * Every route of the route table, described. Typed by `RouteName`, so a new route does not
 * compile without its description.
 */
export const ROUTE_DOCS: Readonly<Record<RouteName, RouteDoc>> = {
  csrf: {
    summary: 'Start or keep the CSRF secret and get a fresh mask of it',
    description: 'Sets the script-readable CSRF cookie (kept if present) and answers its masked token.',
    bearer: false,
    reads: (s) => [{ in: 'cookie', name: s.csrfCookieName, description: 'An existing CSRF secret, kept.' }],
    success: (s) => ({
      description: 'The masked token.',
      body: { schema: 'CsrfResponse', mediaType: 'application/json' },
      setCookies: [s.csrfCookieName],
    }),
    errors: () => [],
  },
  login: {
    summary: 'Sign in and start a session',
    description:
      'Pre-checks in order: 415, 403 CSRF (cookie transports), 429, empty body (415), then the authenticator. 429 login_busy: the password hasher has no place free now (Retry-After).',
    bearer: false,
    requestBody: () => ({ schema: 'PasswordLoginRequest', required: true }),
    reads: csrfReads,
    dpopProof: true,
    success: tokens,
    errors: (s) => [...tokenPrechecks(s), 'login_busy', 'invalid_credentials', 'invalid_user'],
  },
  refresh: {
    summary: 'Rotate the refresh token (single use) and get a new pair',
    description: 'A refresh token used twice revokes its session (401 token_reuse_detected).',
    bearer: false,
    requestBody: (s) => ({ schema: 'RefreshRequest', required: s.transport !== 'cookie' }),
    dpopProof: true,
    reads: (s) => [
      ...(cookieMode(s)
        ? [
            {
              in: 'cookie' as const,
              name: s.refreshCookieName,
              description: s.transport === 'both' ? 'Used when the body has no token.' : 'The refresh token.',
            },
          ]
        : []),
      ...(s.deviceBound
        ? [{ in: 'cookie' as const, name: `${s.refreshCookieName}_bound`, description: 'Needed when the session is bound to a browser key (DBSC).' }]
        : []),
      ...csrfReads(s),
    ],
    success: tokens,
    errors: (s) => [
      ...tokenPrechecks(s),
      'invalid_token',
      'expired_token',
      ['invalid_token_type', 400],
      'invalid_user',
      'session_not_found',
      'session_expired',
      'token_reuse_detected',
      ...(s.deviceBound ? (['invalid_device_bound_proof'] as const) : []),
    ],
    errorSetCookies: clearsCookie,
  },
  'list-sessions': {
    summary: "The caller's active sessions, newest first",
    description: 'The row of the session making the request has `is_current: true`.',
    bearer: true,
    success: () => ({ description: 'The sessions.', body: { schema: 'SessionList', mediaType: 'application/json' }, setCookies: [] }),
    errors: () => GUARD,
  },
  'delete-session': {
    summary: "Revoke one of the caller's own active sessions",
    description: "Another user's, an ended, an unknown and a malformed id all answer 404, after authentication.",
    bearer: true,
    success: (s) => ({
      ...ended('Revoked')(s),
      description: `Revoked; empty body.${cookieMode(s) ? ' Revoking the current session clears the refresh cookie.' : ''}`,
    }),
    errors: () => [...GUARD, ['session_not_found', 404]],
  },
  'rename-session': {
    summary: "Name one of the caller's own active sessions (device name)",
    description: 'Same 404 rules as DELETE. Answers the renamed row as the list shows it.',
    bearer: true,
    requestBody: () => ({ schema: 'RenameSessionRequest', required: true }),
    success: () => ({ description: 'The renamed session.', body: { schema: 'PublicSession', mediaType: 'application/json' }, setCookies: [] }),
    errors: () => [...GUARD, 'unsupported_media_type', 'payload_too_large', ['session_not_found', 404]],
  },
  'session-activity': {
    summary: "The activity history of one of the caller's own active sessions",
    description:
      'Oldest first: created, refreshed (address and browser when they changed), stepped_up, renamed, revoked, reuse_detected, risk_signal. Same 404 rules as DELETE. Only with JWT_SESSION_ACTIVITY.',
    bearer: true,
    success: () => ({ description: 'The entries.', body: { schema: 'ActivityList', mediaType: 'application/json' }, setCookies: [] }),
    errors: () => [...GUARD, ['session_not_found', 404]],
  },
  logout: {
    summary: 'End the current session',
    description: 'Expires the session of the presented access token.',
    bearer: true,
    success: ended('Ended'),
    errors: () => GUARD,
  },
  'logout-all': {
    summary: 'End every session of the caller',
    description: `Expires all active sessions of the user in one bulk update.${STALE}`,
    bearer: true,
    success: ended('Ended'),
    errors: () => [...GUARD, 'insufficient_user_authentication'],
  },
  'logout-others': {
    summary: 'End every session of the caller but the current one (sign out my other devices)',
    description: `Expires all other active sessions of the user in one bulk update; the current session and its refresh cookie stay.${STALE}`,
    bearer: true,
    success: () => ({ description: 'Ended; empty body.', setCookies: [] }),
    errors: () => [...GUARD, 'insufficient_user_authentication'],
  },
  reauthenticate: {
    summary: 'Step-up: prove who you are again with the current password (RFC 9470)',
    description:
      "Raises the session's auth_time (amr pwd) and answers a fresh access token carrying auth_time; no new session, the refresh token is unchanged. After the guard: 415, 403 CSRF (cookie transports), 429 (the login throttle), the body, the per-account budget, then 401 invalid_credentials. 404 not_found (before the guard) when the store cannot record a step-up or the users port has no usernameOf.",
    bearer: true,
    requestBody: () => ({ schema: 'ReauthenticateRequest', required: true }),
    reads: csrfReads,
    success: (s) => ({
      description: `A fresh access token.${accessCookieNote(s)}`,
      body: { schema: 'ReauthenticateResponse', mediaType: 'application/json' },
      setCookies: accessCookie(s),
    }),
    errors: (s) => [...GUARD, ...tokenPrechecks(s), 'login_busy', 'invalid_credentials', 'not_found'],
  },
  'device-bound-registration': {
    summary: 'Bind the session to a browser key (Device Bound Session Credentials registration)',
    description:
      'Called by the browser after a login answer carried `Secure-Session-Registration`: `Secure-Session-Response` holds a `dbsc+jwt` JWT (ES256 or RS256) signed by the key in its `jwk` header, whose `jti` is the challenge of that header (sealed to the session, 5 minutes, single use). The session is bound to the key, once. Answers the session config, the first bound cookie and `Secure-Session-Challenge` for the next refresh. docs/device-bound-cookies.md.',
    bearer: false,
    reads: () => [{ in: 'header', name: 'Secure-Session-Response', description: 'The DBSC proof, as a structured-field string.' }],
    success: (s) => ({
      description: 'The session config (DBSC JSON session instructions).',
      body: { schema: 'DeviceBoundSessionConfig', mediaType: 'application/json' },
      setCookies: [`${s.refreshCookieName}_bound`],
    }),
    errors: () => ['invalid_device_bound_proof', 'rate_limited', 'service_unavailable'],
  },
  'device-bound-refresh': {
    summary: 'Renew the bound cookie with a signature by the session key (DBSC refresh)',
    description:
      'Called by the browser when the bound cookie is missing: `Sec-Secure-Session-Id` names the session. Without `Secure-Session-Response`, or with a stale, spent or foreign challenge, 403 device_bound_challenge with a new `Secure-Session-Challenge` to sign; a proof that does not verify under the stored key, or a session that is not bound, 401 invalid_device_bound_proof. Success: the bound cookie, a challenge for next time, an empty body.',
    bearer: false,
    reads: () => [
      { in: 'header', name: 'Sec-Secure-Session-Id', description: 'The session id, as a structured-field string.' },
      { in: 'header', name: 'Secure-Session-Response', description: 'The DBSC proof signing the last challenge.' },
    ],
    success: (s) => ({ description: 'The bound cookie is renewed; empty body.', setCookies: [`${s.refreshCookieName}_bound`] }),
    errors: () => [
      'invalid_request',
      'session_not_found',
      'session_expired',
      'invalid_device_bound_proof',
      'device_bound_challenge',
      'rate_limited',
      'service_unavailable',
    ],
  },
  jwks: {
    summary: 'The public keys that verify the tokens (asymmetric algorithms)',
    description: 'Current key first, then previous ones. Under HMAC there is no public key: 404 not_found.',
    bearer: false,
    success: () => ({
      description: 'The JWK set.',
      body: { schema: 'Jwks', mediaType: 'application/jwk-set+json' },
      setCookies: [],
      cacheable: true,
    }),
    errors: () => ['not_found'],
  },
  // The Shared Signals transmitter (JWT_SSF_TRANSMITTER): described only when it is on.
  'ssf-configuration': {
    summary: 'Shared Signals transmitter configuration metadata (OpenID SSF 1.0)',
    description: 'Public: receivers discover the JWK set, the delivery method and the stream endpoints here.',
    bearer: false,
    success: () => ({
      description: 'The transmitter metadata.',
      body: { schema: 'SsfConfiguration', mediaType: 'application/json' },
      setCookies: [],
    }),
    errors: () => [],
  },
  'ssf-streams': {
    summary: 'Read the Shared Signals streams (admin)',
    description:
      'With `stream_id`, that stream (404 when unknown); without, every stream. Streams are configured by the operator (JWT_SSF_RECEIVERS); creating, changing and deleting them over HTTP is not offered. Needs an admin (`admin.isAdmin`).',
    bearer: true,
    reads: () => [{ in: 'query', name: 'stream_id', description: 'One stream.' }],
    success: () => ({
      description: 'One stream, or an array of them.',
      body: { schema: 'SsfStreamOrList', mediaType: 'application/json' },
      setCookies: [],
    }),
    errors: () => [...GUARD, 'forbidden', 'not_found'],
  },
  'ssf-status': {
    summary: "Read a Shared Signals stream's status (admin)",
    description: 'A configured stream is always `enabled`. Needs an admin (`admin.isAdmin`).',
    bearer: true,
    reads: () => [{ in: 'query', name: 'stream_id', description: 'The stream (required).' }],
    success: () => ({ description: 'The status.', body: { schema: 'SsfStreamStatus', mediaType: 'application/json' }, setCookies: [] }),
    errors: () => [...GUARD, 'forbidden', 'not_found'],
  },
  'ssf-verify': {
    summary: 'Ask for a Shared Signals verification event (admin)',
    description: "Queues the SSF verification event (with `state`) for the stream's receiver, through the outbox. Needs an admin (`admin.isAdmin`).",
    bearer: true,
    requestBody: () => ({ schema: 'SsfVerificationRequest', required: true }),
    success: () => ({ description: 'Queued; empty body.', setCookies: [], status: 204 }),
    errors: () => [...GUARD, 'forbidden', 'not_found', 'unsupported_media_type', 'payload_too_large'],
  },
};
