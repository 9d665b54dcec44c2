import type { PublicEndpoint } from './endpoint.js';
import { csrfCookie } from '../http/auth-cookies.js';
import { unmaskCsrfToken } from '../http/csrf.js';
import { issueCsrf } from '../http/request-csrf.js';
import { jsonResponse } from '../http/response.js';

/**
 * GET /auth/csrf/: keep (or start) the CSRF secret in its cookie and hand out a fresh
 * mask of it. The cookie is always (re)set, so its lifetime starts again.
 */
export const csrfEndpoint = {
  route: 'csrf',
  method: 'GET',
  path: '/csrf',
  auth: 'none',
  handle({ engine, request }) {
    const { token, setCookies } = issueCsrf(engine, request);
    const secret = unmaskCsrfToken(token);
    const cookies = setCookies.length > 0 || secret === null ? setCookies : [csrfCookie(engine.options, secret)];
    return jsonResponse(200, { csrf_token: token }, { setCookies: cookies });
  },
} as const satisfies PublicEndpoint;
