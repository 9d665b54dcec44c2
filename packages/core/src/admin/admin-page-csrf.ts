import type { Engine } from '../engine.js';
import { csrfCookie } from '../http/auth-cookies.js';
import { parseCookieHeader } from '../http/cookies.js';
import { maskCsrfSecret, newCsrfSecret } from '../http/csrf.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';

const CSRF_SECRET = /^[A-Za-z0-9]{32}$/;

export interface PageCsrf {
  /** A fresh mask of the secret, for the form's hidden field. */
  readonly token: string;
  /** The `csrftoken` cookie to set when the browser had none (or a malformed one). */
  readonly setCookies: string[];
}

/** The CSRF token a server-rendered form embeds (as `GET /auth/csrf/` would hand out). */
export function pageCsrf<U>(engine: Engine<U>, request: SessauthRequest): PageCsrf {
  const existing = parseCookieHeader(headerValues(request.headers, 'cookie')).get(engine.options.csrfCookieName);
  const current = existing?.length === 1 && CSRF_SECRET.test(existing[0]!) ? existing[0]! : undefined;
  if (current !== undefined) return { token: maskCsrfSecret(current), setCookies: [] };
  return freshPageCsrf(engine);
}

/** A new secret (its cookie to set) and its mask: after a sign-in, as the API's login does. */
export function freshPageCsrf<U>(engine: Engine<U>): PageCsrf {
  const secret = newCsrfSecret();
  return { token: maskCsrfSecret(secret), setCookies: [csrfCookie(engine.options, secret)] };
}
