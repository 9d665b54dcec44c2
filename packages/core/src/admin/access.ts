import type { AdminCapability, Engine } from '../endpoints/engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { parseCookieHeader } from '../http/cookies.js';
import { headerValues, soleValue } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { type AuthContext, authenticate } from '../sessions/authenticate.js';
import { authenticateRequest } from '../endpoints/bearer-guard.js';
import { ADMIN_COOKIE_NAME } from './cookie.js';

const TOKEN = /^[A-Za-z0-9_.~+/=-]+$/;

/** How the caller presented its token: tells whether a stale admin cookie should be cleared. */
export type AdminCredential = 'bearer' | 'cookie' | 'none';

export function adminCredentialOf(request: SessauthRequest): AdminCredential {
  if (headerValues(request.headers, 'authorization') !== undefined) return 'bearer';
  return adminCookieValues(request) === undefined ? 'none' : 'cookie';
}

/**
 * The guard of the admin pages: the API's own guard (one token verification, one
 * store read) on `Authorization: Bearer` when sent, else on the admin cookie of
 * the browser sign-in; then the host's `isAdmin`. No usable token: 401; a valid
 * token of a user who is not an admin: 403 `forbidden`.
 */
export async function requireAdmin<U>(engine: Engine<U>, admin: AdminCapability<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  const authorization = headerValues(request.headers, 'authorization');
  const context = authorization !== undefined ? await authenticateRequest(engine, request) : await authenticateAdminCookie(engine, request);
  if (!admin.isAdmin(context.user)) throw new SessauthError('forbidden');
  return context;
}

/** The session named by the admin cookie alone (what sign-out ends). */
export function authenticateAdminCookie<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  const cookies = adminCookieValues(request);
  // A repeated admin cookie is ambiguous: fail closed, like a repeated Authorization.
  const cookie = soleValue(cookies);
  if (cookie === undefined || !TOKEN.test(cookie)) {
    return Promise.reject(new SessauthError('invalid_token'));
  }
  return authenticate(engine, cookie, { jkt: null, proofless: true });
}

function adminCookieValues(request: SessauthRequest): string[] | undefined {
  return parseCookieHeader(headerValues(request.headers, 'cookie')).get(ADMIN_COOKIE_NAME);
}
