import type { PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import type { SessauthResponse } from '../http/sessauth-request.js';

/**
 * Other services cache the key set briefly; a rotation publishes the next key ahead of
 * signing with it (see the README's "Key rotation"), and verifiers such as jose's remote
 * JWK set fetch again on an unknown kid anyway.
 */
const JWKS_CACHE_CONTROL = 'public, max-age=300';

/**
 * GET /auth/jwks.json: the public keys that verify our tokens (current, then previous), each
 * with kid, alg and use "sig". Under HMAC there is no public key: 404 not_found, as for any
 * path that is not an endpoint.
 */
export const jwksEndpoint = {
  route: 'jwks',
  method: 'GET',
  path: '/jwks.json',
  auth: 'none',
  handle: ({ engine }) => jwks(engine),
} as const satisfies PublicEndpoint;

/** The same key set where OpenID-style verifiers look for it. */
export const wellKnownJwksEndpoint = { ...jwksEndpoint, path: '/.well-known/jwks.json' } as const satisfies PublicEndpoint;

function jwks<U>(engine: Engine<U>): SessauthResponse {
  const jwks = engine.tokens.jwks;
  if (jwks === null) throw new SessauthError('not_found');
  // Public by design, so cacheable: the one response under the prefix without no-store.
  return {
    status: 200,
    headers: { 'cache-control': JWKS_CACHE_CONTROL, 'x-content-type-options': 'nosniff', 'content-type': 'application/jwk-set+json' },
    setCookies: [],
    body: JSON.stringify(jwks),
  };
}
