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
