import { DpopProofError } from '../errors/dpop-error.js';
import { bearerToken, presentedAccessToken } from '../http/bearer-token.js';
import { parseCookieHeader } from '../http/cookies.js';
import { assertCsrf } from '../http/request-csrf.js';
import { headerValues, soleValue } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { type AuthContext, authenticate } from '../sessions/authenticate.js';
import { dpopProofOf, recordDpopProof } from './dpop-request.js';
import type { Engine } from './engine.js';

/**
 * The request facts the guard may need: for the access-token cookie its cookies and, for an
 * unsafe method, the CSRF rules' inputs; for DPoP also the full path (`htu`).
 */
export type GuardRequest = Pick<SessauthRequest, 'method' | 'headers' | 'peerAddress' | 'secure'> & { readonly path?: string };

/** Input of the per-request guard: just the headers it needs, no body, no Request. */
export interface AuthenticateInput {
  /** Every `Authorization` header value received (more than one fails closed). */
  readonly authorization: readonly string[] | undefined;
  /**
   * The request, read only when a setting needs it (the adapters build it only then): for the
   * access-token cookie (JWT_ACCESS_TOKEN_COOKIE, when no `Authorization` header came) its cookies
   * and the CSRF rules' inputs; for DPoP (JWT_DPOP) its method, full path (under the framework's
   * mount, query allowed), `Host`, `X-Forwarded-Proto` and `DPoP` headers, peer and TLS, from
   * which the proof's `htm` and `htu` are checked. Without it a `DPoP` token is refused (a
   * `Bearer` one is unaffected).
   */
  readonly request?: GuardRequest | undefined;
}

/**
 * The guard of host routes (`auth.authenticate`): the access token of the headers, then the
 * session domain's check. With the access-token cookie on and no `Authorization` header, the
 * cookie's token instead, after the CSRF check for an unsafe method (a browser attaches the
 * cookie by itself, so a request it authenticates could have been forged by another page).
 */
export async function authenticateBearer<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  const fromCookie = cookieCredential(engine, input);
  if (fromCookie !== undefined) return authenticateByCookie(engine, fromCookie);
  return authenticateByHeader(engine, input);
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
  return authenticateByHeader(engine, input);
}

/**
 * The `Authorization` header's token. With JWT_DPOP on, a `DPoP` token's proof is verified
 * first (crypto only), the session's binding is compared in the domain, and the proof's `jti`
 * is recorded last: a DPoP request costs one store write more than a Bearer one.
 */
async function authenticateByHeader<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  if (engine.options.dpop === 'off') return authenticate(engine, bearerToken(input.authorization), { jkt: null });
  const presented = presentedAccessToken(input.authorization);
  if (presented.scheme === 'bearer') return authenticate(engine, presented.token, { jkt: null });
  const request = input.request;
  if (request === undefined || request.path === undefined) throw new DpopProofError('no_request_facts');
  const proof = await dpopProofOf(engine, { ...request, path: request.path }, presented.token);
  if (proof === null) throw new DpopProofError('missing');
  const context = await authenticate(engine, presented.token, { jkt: proof.jkt });
  await recordDpopProof(engine, proof);
  return context;
}

/** The guard of the endpoints that take an access token (the list, DELETE, PATCH, the logouts). */
export function authenticateRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  return authenticateBearer(engine, { authorization: headerValues(request.headers, 'authorization'), request });
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
  // A key-bound (DPoP) session is never served by a cookie: the cookie carries no proof.
  return authenticate(engine, token, { jkt: null });
}
