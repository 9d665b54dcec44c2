import { serializeCookie } from '../http/cookies.js';
import type { ResolvedOptions } from '../options/options.js';

/** The browser sign-in's cookie: an access token, sent only to the admin pages. */
export const ADMIN_COOKIE_NAME = 'sessauth_admin';

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site can make the
 * browser send it, so the read-only GETs need no CSRF token), scoped to the admin
 * prefix (never sent to the API or the host's routes), and Secure like the CSRF
 * cookie (or always, over HTTPS). It lives as long as the access token inside it.
 */
export function adminCookie(options: ResolvedOptions, token: string, secure: boolean): string {
  return serializeCookie({
    name: ADMIN_COOKIE_NAME,
    value: token,
    path: `${options.adminPrefix}/`,
    maxAge: options.accessTokenExpireSeconds,
    httpOnly: true,
    secure: secure || options.csrfCookieSecure,
    sameSite: 'Strict',
  });
}

export function clearAdminCookie(options: ResolvedOptions, secure: boolean): string {
  return serializeCookie({
    name: ADMIN_COOKIE_NAME,
    value: '',
    path: `${options.adminPrefix}/`,
    maxAge: 0,
    httpOnly: true,
    secure: secure || options.csrfCookieSecure,
    sameSite: 'Strict',
  });
}
