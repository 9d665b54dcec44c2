import type { ResolvedOptions } from '../options/options.js';
import { serializeCookie } from './cookies.js';

/**
 * The refresh cookie carrying `token` until the session's natural end; with `persistent: false`
 * ("remember": false at login) a browser-session cookie, without Max-Age or Expires.
 */
export function refreshCookie(options: ResolvedOptions, token: string, expiresAt: Date, now: Date, persistent = true): string {
  return serializeCookie({
    name: options.refreshCookieName,
    value: token,
    path: options.refreshCookiePath,
    ...(persistent ? { maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)) } : {}),
    httpOnly: options.refreshCookieHttpOnly,
    secure: options.refreshCookieSecure,
    sameSite: options.refreshCookieSameSite,
    ...(options.refreshCookieDomain === undefined ? {} : { domain: options.refreshCookieDomain }),
  });
}

export function clearRefreshCookie(options: ResolvedOptions): string {
  return serializeCookie({
    name: options.refreshCookieName,
    value: '',
    path: options.refreshCookiePath,
    maxAge: 0,
    httpOnly: options.refreshCookieHttpOnly,
    secure: options.refreshCookieSecure,
    sameSite: options.refreshCookieSameSite,
    ...(options.refreshCookieDomain === undefined ? {} : { domain: options.refreshCookieDomain }),
  });
}

const CSRF_COOKIE_MAX_AGE = 365 * 24 * 3600;

/** Readable by scripts on purpose (double submit), like Django's `csrftoken`. */
export function csrfCookie(options: ResolvedOptions, secret: string): string {
  return serializeCookie({
    name: options.csrfCookieName,
    value: secret,
    path: '/',
    maxAge: CSRF_COOKIE_MAX_AGE,
    httpOnly: false,
    secure: options.csrfCookieSecure,
    sameSite: 'Lax',
  });
}

/** True when refresh tokens travel in a cookie (and CSRF therefore applies). */
export function usesRefreshCookie(options: ResolvedOptions): boolean {
  return options.refreshTokenTransport !== 'body';
}

/**
 * The access-token cookie (JWT_ACCESS_TOKEN_COOKIE): HttpOnly, SameSite=Lax, Path `/` (every page
 * of the site renders with it), host-only, for the access token's own lifetime. Lax, not Strict: a
 * link from another site must land signed in, while a cross-site POST, iframe or fetch leaves it off.
 * With `persistent: false` ("remember": false at login) a browser-session cookie, as the refresh
 * cookie then is: closing the browser ends both, so no page renders signed in afterwards.
 */
export function accessCookie(options: ResolvedOptions, token: string, persistent = true): string {
  return serializeCookie({
    name: options.accessCookieName,
    value: token,
    path: '/',
    ...(persistent ? { maxAge: options.accessTokenExpireSeconds } : {}),
    httpOnly: true,
    secure: options.accessCookieSecure,
    sameSite: 'Lax',
  });
}

/**
 * The DBSC bound cookie (JWT_DEVICE_BOUND_COOKIES): beside the refresh cookie, with its Path,
 * Domain, Secure and SameSite, always HttpOnly, for an access token's lifetime. Its name is the
 * refresh cookie's with `_bound` after it (a `__Host-` or `__Secure-` prefix carries over, and
 * its rules hold because the attributes are the refresh cookie's).
 */
export function boundCookie(options: ResolvedOptions, value: string, maxAge: number): string {
  return serializeCookie({
    name: boundCookieName(options),
    value,
    path: options.refreshCookiePath,
    maxAge,
    httpOnly: true,
    secure: options.refreshCookieSecure,
    sameSite: options.refreshCookieSameSite,
    ...(options.refreshCookieDomain === undefined ? {} : { domain: options.refreshCookieDomain }),
  });
}

export function boundCookieName(options: ResolvedOptions): string {
  return `${options.refreshCookieName}_bound`;
}

/** The bound cookie's attributes as the DBSC session config names them (the browser compares Domain, Path, Secure, HttpOnly, SameSite). */
export function boundCookieAttributes(options: ResolvedOptions): string {
  const parts = [`Path=${options.refreshCookiePath}`];
  if (options.refreshCookieDomain !== undefined) parts.push(`Domain=${options.refreshCookieDomain}`);
  if (options.refreshCookieSecure) parts.push('Secure');
  parts.push('HttpOnly', `SameSite=${options.refreshCookieSameSite}`);
  return parts.join('; ');
}

/** The cookies that end a browser's session: the refresh cookie, and the access-token and bound cookies when they are on. */
export function clearSessionCookies(options: ResolvedOptions): string[] {
  const cleared = [clearRefreshCookie(options)];
  if (options.deviceBoundCookies) cleared.push(boundCookie(options, '', 0));
  if (options.accessTokenCookie) {
    cleared.push(
      serializeCookie({
        name: options.accessCookieName,
        value: '',
        path: '/',
        maxAge: 0,
        httpOnly: true,
        secure: options.accessCookieSecure,
        sameSite: 'Lax',
      }),
    );
  }
  return cleared;
}

/** With the access-token cookie on, a response that issues `token` also sets the cookie. */
export function accessCookies(options: ResolvedOptions, token: string, persistent = true): string[] {
  return options.accessTokenCookie ? [accessCookie(options, token, persistent)] : [];
}
