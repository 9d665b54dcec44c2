import { DpopProofError } from '../errors/dpop-error.js';
import { bearerToken, presentedAccessToken } from '../http/bearer-token.js';
import { headerValues } from '../http/request-headers.js';
import type { RequestUriFacts } from '../http/request-uri.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { type AuthContext, authenticate } from '../sessions/authenticate.js';
import { dpopProofOf, recordDpopProof } from './dpop-request.js';
import type { Engine } from './engine.js';

/** Input of the per-request guard: just the headers it needs, no body, no Request. */
export interface AuthenticateInput {
  /** Every `Authorization` header value received (more than one fails closed). */
  readonly authorization: readonly string[] | undefined;
  /**
   * The request itself, for DPoP (JWT_DPOP): its method, full path (under the framework's
   * mount, query allowed), `Host`, `X-Forwarded-Proto` and `DPoP` headers, peer and TLS, from
   * which the proof's `htm` and `htu` are checked. Every adapter passes it; without it a
   * `DPoP` token is refused (a `Bearer` one is unaffected).
   */
  readonly request?: RequestUriFacts;
}

/**
 * The guard of host routes (`auth.authenticate`): the access token of the headers, then the
 * session domain's check. With JWT_DPOP on, a `DPoP` token's proof is verified first (crypto
 * only), the session's binding is compared in the domain, and the proof's `jti` is recorded
 * last: a DPoP request costs one store write more than a Bearer one.
 */
export async function authenticateBearer<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  if (engine.options.dpop === 'off') return authenticate(engine, bearerToken(input.authorization), { jkt: null });
  const presented = presentedAccessToken(input.authorization);
  if (presented.scheme === 'bearer') return authenticate(engine, presented.token, { jkt: null });
  if (input.request === undefined) throw new DpopProofError('no_request_facts');
  const proof = await dpopProofOf(engine, input.request, presented.token);
  if (proof === null) throw new DpopProofError('missing');
  const context = await authenticate(engine, presented.token, { jkt: proof.jkt });
  await recordDpopProof(engine, proof);
  return context;
}

/** The guard of the endpoints that take an access token (the list, DELETE, PATCH, the logouts). */
export function authenticateRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  return authenticateBearer(engine, { authorization: headerValues(request.headers, 'authorization'), request });
}
