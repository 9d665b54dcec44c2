import type { Engine } from '../endpoints/engine.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import { emitLogin } from '../sessions/emit-session-events.js';
import { clientIpOf } from '../http/client-identity.js';
import { isMountPath, mountedOptions } from '../http/mount-path.js';
import { joinedHeader } from '../http/request-headers.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { normalizeIp } from '../net/ip-address.js';
import { tokenResponse } from '../endpoints/token-response.js';
import { createSession } from '../sessions/create-session.js';
import { checkAuthenticationFacts } from '../sessions/step-up.js';

/** Where the new session's device facts come from; everything is optional. */
export interface CreateSessionForInput {
  /**
   * The host route's request (`toSessauthRequest(req)` in the Node adapters): its client
   * address is resolved as the login resolves it (X-Forwarded-For only from
   * JWT_TRUSTED_PROXY_CIDRS) and its User-Agent is recorded. `ip` and `userAgent` win over it.
   */
  readonly request?: Pick<SessauthRequest, 'headers' | 'peerAddress' | 'secure'>;
  /** The client's User-Agent header. */
  readonly userAgent?: string;
  /** The client's address (IPv4 or IPv6 text); null: unknown. A malformed one throws an `IntegrationError`. */
  readonly ip?: string | null;
  /** `false`: a short session, exactly as `"remember": false` at login. @default true */
  readonly remember?: boolean;
  /**
   * How the host authenticated the user (RFC 8176 values: `['otp']`, `['hwk', 'user']`...),
   * recorded on the session with its `authTime` for the freshness rules. @default []
   */
  readonly amr?: readonly string[];
  /** The authentication context class reached, when the host names one (sent as `acr` in access tokens). */
  readonly acr?: string | null;
  /**
   * Where the host mounted the endpoints (`app.use('/api', sessauthMiddleware(auth))`: `'/api'`), so that
   * `response()` sets the refresh cookie on the mounted Path, as the login there does. @default '' (the root)
   */
  readonly mountPath?: string;
}

/**
 * A session made by `auth.createSessionFor`: the login body's fields with both tokens
 * (whatever the transport), plus the session id. JSON-serialising it gives exactly those
 * three fields: `response` is a method.
 */
export interface CreatedSession {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly session_id: string;
  /**
   * The login's own 200 for this session, shaped by JWT_REFRESH_TOKEN_TRANSPORT like
   * `POST {prefix}/login/` (in cookie and both transports it sets the refresh cookie; in
   * cookie transport the body leaves `refresh_token` out). Send it with the adapter's writer
   * (`writeSessauthResponse` of `@sessauth/node-http`, `handler.toResponse` of `@sessauth/fetch`).
   */
  response(): SessauthResponse;
}

/**
 * A session without a password (after sign-up, an OAuth callback, a magic link): the user
 * is read through the users port (unknown or inactive: `SessauthError('invalid_user')`),
 * then the login's own `createSession` (cap, browser summary, location, stamp) and `login`
 * event. The host has authenticated the user its own way; nothing here checks a credential.
 */
export async function createSessionFor<U>(engine: Engine<U>, userId: string, input: CreateSessionForInput = {}): Promise<CreatedSession> {
  if (typeof userId !== 'string' || userId === '') throw new IntegrationError('createSessionFor: userId must be a non-empty string');
  if (input.remember !== undefined && typeof input.remember !== 'boolean') throw new IntegrationError('createSessionFor: remember must be a boolean');
  if (input.userAgent !== undefined && typeof input.userAgent !== 'string')
    throw new IntegrationError('createSessionFor: userAgent must be a string');
  const facts = checkAuthenticationFacts('createSessionFor', input, []);
  const mount = mountPathOf(input);
  const clientIp = clientIpFrom(engine, input);
  const userAgent = input.userAgent ?? (input.request === undefined ? undefined : joinedHeader(input.request.headers, 'user-agent'));
  const user = await engine.users.findById(userId);
  if (user === null) throw new SessauthError('invalid_user');
  const issued = await createSession(engine, user, { clientIp, userAgent, ...facts, ...(input.remember === false ? { remember: false } : {}) });
  emitLogin(engine, issued.session);
  return {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    session_id: issued.session.id,
    response: () => tokenResponse(mount === '' ? engine : { ...engine, options: mountedOptions(engine.options, mount) }, issued),
  };
}

function mountPathOf(input: CreateSessionForInput): string {
  const mount = input.mountPath ?? '';
  if (typeof mount !== 'string' || !isMountPath(mount)) {
    throw new IntegrationError("createSessionFor: mountPath must be '' or a path such as '/api' (no ';', spaces or trailing slash)");
  }
  return mount;
}

function clientIpFrom<U>(engine: Engine<U>, input: CreateSessionForInput): string | null {
  if (input.ip === null) return null;
  if (input.ip !== undefined) {
    const ip = typeof input.ip === 'string' ? normalizeIp(input.ip) : null;
    if (ip === null) throw new IntegrationError('createSessionFor: ip must be an IPv4 or IPv6 address, or null');
    return ip;
  }
  return input.request === undefined ? null : clientIpOf(engine, input.request);
}
