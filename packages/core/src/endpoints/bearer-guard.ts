import { bearerToken } from '../http/bearer-token.js';
import { parseCookieHeader } from '../http/cookies.js';
import { assertCsrf } from '../http/request-csrf.js';
import { headerValues, soleValue } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { type AuthContext, authenticate } from '../sessions/authenticate.js';
import type { Engine } from './engine.js';

/** The request facts the access-token cookie needs: its cookies, and for an unsafe method the CSRF rules' inputs. */
export type GuardRequest = Pick<SessauthRequest, 'method' | 'headers' | 'peerAddress' | 'secure'>;

/** Input of the per-request guard: just the headers it needs, no body, no Request. */
export interface AuthenticateInput {
  /** Every `Authorization` header value received (more than one fails closed). */
  readonly authorization: readonly string[] | undefined;
  /**
   * The request, for the access-token cookie (JWT_ACCESS_TOKEN_COOKIE): read only when that
   * setting is on and no `Authorization` header came. The adapters pass it only then.
   */
  readonly request?: GuardRequest | undefined;
}

/**
 * The guard of host routes (`auth.authenticate`): the Bearer token of the headers, then the
 * session domain's check. With the access-token cookie on and no `Authorization` header, the
 * cookie's token instead, after the CSRF check for an unsafe method (a browser attaches the
 * cookie by itself, so a request it authenticates could have been forged by another page).
 */
export async function authenticateBearer<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  const fromCookie = cookieCredential(engine, input);
  if (fromCookie !== undefined) return authenticateByCookie(engine, fromCookie);
  return authenticate(engine, bearerToken(input.authorization));
}

/**
 * `authenticateOptional`: no credential at all is no user. A cookie that no longer
 * authenticates (a revoked or ended session, a token past its time) is no user either: a page
 * load has no client that could refresh, so it renders signed out. A refused CSRF check still
 * throws, and a bad `Authorization` header is still its 401, as without the cookie.
 */
export async function authenticateOptionalBearer<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U> | null> {
  const fromCookie = cookieCredential(engine, input);
  if (fromCookie !== undefined) {
    try {
      return await authenticateByCookie(engine, fromCookie);
    } catch (error) {
      if (error instanceof SessauthError && error.status === 401) return null;
      throw error;
    }
  }
  if (input.authorization === undefined || input.authorization.length === 0) return null;
  return authenticate(engine, bearerToken(input.authorization));
}

/** The guard of the endpoints that take a Bearer token (the list, DELETE, PATCH, the logouts). */
export function authenticateRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  return authenticateBearer(engine, { authorization: headerValues(request.headers, 'authorization') });
}

interface CookieCredential {
  readonly request: GuardRequest;
  /** Every value of the access-token cookie the request carried (more than one fails closed). */
  readonly values: readonly string[];
}

function cookieCredential<U>(engine: Engine<U>, input: AuthenticateInput): CookieCredential | undefined {
  if (!engine.options.accessTokenCookie || input.request === undefined) return undefined;
  if (input.authorization !== undefined && input.authorization.length > 0) return undefined;
  const values = parseCookieHeader(headerValues(input.request.headers, 'cookie')).get(engine.options.accessCookieName);
  return values === undefined ? undefined : { request: input.request, values };
}

async function authenticateByCookie<U>(engine: Engine<U>, credential: CookieCredential): Promise<AuthContext<U>> {
  const { request } = credential;
  // Safe methods pass the CSRF rules untouched; the others need X-CSRFToken and a same-origin Origin/Referer.
  assertCsrf(engine, request, headerValues(request.headers, 'x-csrftoken'));
  // Two cookies of one name (a sibling path's, a planted one): ambiguous, so fail closed.
  const token = soleValue(credential.values);
  if (token === undefined || token.length === 0) throw new SessauthError('invalid_token');
  return authenticate(engine, token);
}
