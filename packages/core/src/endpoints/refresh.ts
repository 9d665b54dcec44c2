import type { PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clearSessionCookies } from '../http/auth-cookies.js';
import { readJsonObject } from '../http/read-json-body.js';
import { errorToResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { refreshSession } from '../sessions/refresh-session.js';
import { checkTokenEndpointRequest } from './token-endpoint-checks.js';
import { tokenResponse } from './token-response.js';
import { dpopProofOf, recordDpopProof } from './dpop-request.js';
import { joinedHeader, soleValue } from '../http/request-headers.js';
import { boundCookieSession, deviceBoundOn, registrationHeaders } from './device-bound-session.js';

/** Outcomes after which the refresh cookie is useless: clear it. */
const DEAD_SESSION = new Set(['token_reuse_detected', 'session_expired', 'session_not_found']);

/** POST /auth/refresh/: pre-checks, then strict single-use rotation. */
export const refreshEndpoint = {
  route: 'refresh',
  method: 'POST',
  path: '/refresh',
  auth: 'none',
  handle: ({ engine, request }) => refresh(engine, request),
} as const satisfies PublicEndpoint;

async function refresh<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { cookies, clientIp } = await checkTokenEndpointRequest(engine, request, 'refresh');
  const body = await readJsonObject(request, engine.options.maxBodyBytes);
  const token = presentedRefreshToken(engine, body, cookies);
  // JWT_DPOP: a proof, when sent, is verified and recorded; the session domain compares its key
  // with the refresh token's binding before the store is asked anything.
  const proof = engine.options.dpop === 'off' ? null : await dpopProofOf(engine, request);
  if (proof !== null) await recordDpopProof(engine, proof);
  try {
    const client = { ipAddress: clientIp, userAgent: joinedHeader(request.headers, 'user-agent') };
    // JWT_DEVICE_BOUND_COOKIES: a bound session refreshes only beside a bound cookie, which only
    // a signature by its key renews; an unbound one is invited to register again.
    const deviceBound = deviceBoundOn(engine) ? { provenSessionId: await boundCookieSession(engine, cookies) } : undefined;
    const issued = await refreshSession(engine, token, client, { jkt: proof?.jkt ?? null }, deviceBound);
    return tokenResponse(engine, issued, { headers: await registrationHeaders(engine, issued.session) });
  } catch (error) {
    const cookieMode = engine.options.refreshTokenTransport !== 'body';
    if (cookieMode && error instanceof SessauthError && DEAD_SESSION.has(error.code)) {
      return errorToResponse(error, engine.logger, { setCookies: clearSessionCookies(engine.options) });
    }
    throw error;
  }
}

/**
 * Where the token comes from: the JSON body in `body` mode, the cookie in `cookie`
 * mode, and in `both` mode the body when it has one, else the cookie. CSRF has
 * already passed in cookie and both modes, so a body token bypasses nothing.
 * No token at all in the transport's place (absent, `""` or `null`; a cookie that
 * body mode does not read) is 401 `invalid_token`, as JWT Ninja answers; a token of
 * another JSON type is a malformed request (400).
 */
function presentedRefreshToken<U>(engine: Engine<U>, body: Record<string, unknown>, cookies: Map<string, string[]>): string {
  const transport = engine.options.refreshTokenTransport;
  const fromBody = body.refresh_token;
  if (transport !== 'cookie' && fromBody !== undefined && fromBody !== null && fromBody !== '') {
    if (typeof fromBody !== 'string') throw new SessauthError('invalid_request');
    return fromBody;
  }
  if (transport === 'body') throw new SessauthError('invalid_token');
  // A duplicated refresh cookie fails closed instead of picking one.
  const fromCookie = soleValue(cookies.get(engine.options.refreshCookieName));
  if (fromCookie === undefined || fromCookie === '') {
    // A client built for body transport: say why its token did not count (never the token).
    if (transport === 'cookie' && fromBody !== undefined && fromBody !== null && fromBody !== '') {
      engine.logger.warn('refresh_token_in_body_ignored', {
        hint: 'refresh_token in the body is ignored in cookie transport (JWT_REFRESH_TOKEN_TRANSPORT=cookie): the token comes from the refresh cookie; configure the client for cookie transport, or the server for body or both',
      });
    }
    throw new SessauthError('invalid_token');
  }
  return fromCookie;
}
