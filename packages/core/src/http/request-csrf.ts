import type { WireContext } from './wire-context.js';
import { isSecureRequest, ownHost } from './client-identity.js';
import { parseCookieHeader } from './cookies.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { csrfCookie } from './auth-cookies.js';
import { csrfFailure, maskCsrfSecret, newCsrfSecret } from './csrf.js';
import { headerValues, soleValue } from './request-headers.js';
import type { SessauthRequest } from './sessauth-request.js';

/**
 * The CSRF check of one request with the engine's settings, for the token endpoints
 * (token from `X-CSRFToken`) and the admin forms (token from a form field) alike.
 * A failure is 403 `csrf_failed`, logged at warn level with the rule that failed (and
 * a refused Origin, which is the site's, not the user's), never a token value.
 */
export function assertCsrf(
  wire: WireContext,
  request: Pick<SessauthRequest, 'method' | 'headers' | 'peerAddress' | 'secure'>,
  headerTokens: readonly string[] | undefined,
  cookies: Map<string, string[]> = parseCookieHeader(headerValues(request.headers, 'cookie')),
): void {
  const failure = csrfFailure({
    method: request.method,
    headerTokens,
    cookieValues: cookies.get(wire.options.csrfCookieName),
    origin: headerValues(request.headers, 'origin'),
    referer: headerValues(request.headers, 'referer'),
    host: ownHost(wire, request),
    secure: isSecureRequest(wire, request),
    trustedOrigins: wire.options.csrfTrustedOrigins,
  });
  if (failure === null) return;
  if (failure.reason === 'origin_refused') {
    wire.logger.warn('csrf_failed', {
      reason: failure.reason,
      origin: loggableOrigin(failure.origin),
      hint: 'if this origin is yours, add it to JWT_CSRF_TRUSTED_ORIGINS',
    });
  } else if (failure.reason === 'no_cookie') {
    wire.logger.warn('csrf_failed', {
      reason: failure.reason,
      likely_cause: 'SameSite: a cross-site request',
      hint: noCookieHint(wire.options.prefix),
    });
  } else {
    wire.logger.warn('csrf_failed', { reason: failure.reason });
  }
  throw new SessauthError('csrf_failed');
}

/**
 * The usual cause of a missing CSRF cookie is not an attack but a development set-up
 * across two sites: the cookie is SameSite=Lax, which a browser leaves off a cross-site
 * fetch, so the login itself fails.
 */
function noCookieHint(prefix: string): string {
  return (
    'the request carried no CSRF cookie; most often the page and the API are on different sites ' +
    '(localhost and the loopback address in digits are two sites), and the browser does not send the SameSite=Lax cookie on a cross-site fetch: ' +
    `serve both from one site (e.g. both on localhost), call GET ${prefix}/csrf/ first, and send requests with credentials: 'include'`
  );
}

/** The refused origin, bounded; an IP-literal host is not logged (it could be a person's address). */
function loggableOrigin(origin: string): string {
  const bounded = origin.slice(0, 200);
  try {
    const { hostname } = new URL(bounded);
    return /^[\d.]+$|^\[/.test(hostname) ? '(an IP-literal origin)' : bounded;
  } catch {
    return '(not a URL)';
  }
}

const CSRF_SECRET = /^[A-Za-z0-9]{32}$/;

/** A masked CSRF token and the cookie to set with it. */
export interface IssuedCsrf {
  readonly token: string;
  readonly setCookies: string[];
}

/**
 * A fresh mask of the request's CSRF secret, which is kept, never rotated (the seed's
 * flow sends one masked value on login and every refresh); a new secret, and its cookie,
 * only when the request has none (or a malformed or repeated one).
 */
export function issueCsrf(wire: WireContext, request: SessauthRequest): IssuedCsrf {
  const current = soleValue(parseCookieHeader(headerValues(request.headers, 'cookie')).get(wire.options.csrfCookieName));
  if (current !== undefined && CSRF_SECRET.test(current)) return { token: maskCsrfSecret(current), setCookies: [] };
  const secret = newCsrfSecret();
  return { token: maskCsrfSecret(secret), setCookies: [csrfCookie(wire.options, secret)] };
}
