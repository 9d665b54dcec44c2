import type { Engine } from '../engine.js';
import { csrfCookie } from '../http/auth-cookies.js';
import { parseCookieHeader } from '../http/cookies.js';
import { maskCsrfSecret, newCsrfSecret } from '../http/csrf.js';
import { headerValues } from '../http/request-headers.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';

const CSRF_SECRET = /^[A-Za-z0-9]{32}$/;

/** GET /auth/csrf/: keep (or start) the CSRF secret in its cookie and hand out a fresh mask of it. */
export function csrfRoute<U>(engine: Engine<U>, request: SessauthRequest): SessauthResponse {
  const existing = parseCookieHeader(headerValues(request.headers, 'cookie')).get(engine.options.csrfCookieName);
  const current = existing?.length === 1 ? existing[0]! : undefined;
  const secret = current !== undefined && CSRF_SECRET.test(current) ? current : newCsrfSecret();
  return jsonResponse(200, { csrf_token: maskCsrfSecret(secret) }, { setCookies: [csrfCookie(engine.options, secret)] });
}
