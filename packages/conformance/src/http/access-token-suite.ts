import { expect } from 'vitest';
import { expectClientError, expectError } from './expectations.js';
import { rawRequest } from './raw-http.js';
import type { SuiteKit } from './suite-kit.js';
import { claimSet, claimsOf, forgeToken, tamperSignature, unsignedToken } from './token-forge.js';

/** The guard of protected routes (host route GET /me and the core's GET /auth/sessions/). */
export function accessTokenSuite(kit: SuiteKit): void {
  kit.test('access-token/expired', 'an access token older than 300 s is expired_token', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    app.clock.advance(290);
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
    app.clock.advance(11);
    expectError(await alice.client.get('/me', { bearer: alice.access }), 401, 'expired_token');
    expectError(await alice.client.get(app.at('/sessions/'), { bearer: alice.access }), 401, 'expired_token');
  });

  kit.test('access-token/invalid', 'garbage, tampered and mis-issued access tokens are invalid_token', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.access);
    const like = (overrides: Record<string, unknown>) => claimSet(app.forge, { sub: claims.sub, sid: claims.sid, ...overrides });
    const now = Math.floor(app.clock.now().getTime() / 1000);
    const tokens = {
      garbage: 'not-a-token',
      'three garbage segments': 'aaa.bbb.ccc',
      tampered: tamperSignature(alice.access),
      'wrong audience': await forgeToken(app.forge, 'at+jwt', like({ aud: 'someone-else' })),
      'wrong issuer': await forgeToken(app.forge, 'at+jwt', like({ iss: 'https://evil.test' })),
      'other secret': await forgeToken(app.forge, 'at+jwt', like({}), `${app.forge.secretKey}-other-key-material`),
      'alg none': unsignedToken('at+jwt', like({})),
      'not yet valid': await forgeToken(app.forge, 'at+jwt', like({ nbf: now + 3600 })),
      'too long': 'a'.repeat(9000),
    };
    for (const [what, token] of Object.entries(tokens)) {
      const result = await alice.client.get('/me', { bearer: token });
      expect(`${what}: ${result.status} ${result.errorCode ?? result.text}`).toBe(`${what}: 401 invalid_token`);
    }
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });

  kit.test('access-token/typ-exact', 'an access token is recognised by typ at+jwt exactly', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.access);
    for (const typ of ['application/at+jwt', 'AT+JWT', 'JWT']) {
      const token = await forgeToken(app.forge, typ, claimSet(app.forge, { sub: claims.sub, sid: claims.sid }));
      expectError(await alice.client.get('/me', { bearer: token }), 401, ['invalid_token', 'invalid_token_type']);
    }
  });

  kit.test('access-token/refresh-token', 'a refresh token on a protected route is 401 invalid_token_type', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    expectError(await alice.client.get('/me', { bearer: alice.refresh }), 401, 'invalid_token_type');
    expectError(await alice.client.get(app.at('/sessions/'), { bearer: alice.refresh }), 401, 'invalid_token_type');
  });

  kit.test('access-token/unknown-session', 'a well-signed access token whose session does not exist is session_not_found', async () => {
    const app = await kit.start();
    const token = await forgeToken(app.forge, 'at+jwt', claimSet(app.forge, { sub: app.users.alice.id, sid: 'no-such-session-id' }));
    expectError(await app.client().get('/me', { bearer: token }), 401, 'session_not_found');
  });

  kit.test('access-token/foreign-sub', "an access token naming another user's session is refused", async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const token = await forgeToken(app.forge, 'at+jwt', claimSet(app.forge, { sub: app.users.bob.id, sid: alice.sessionId }));
    const result = await app.client().get('/me', { bearer: token });
    expect(result.status, result.text).toBe(401);
    expect(result.text).not.toContain(app.users.alice.id);
  });

  kit.test('access-token/malformed-authorization', 'a missing Authorization header is 401, a malformed one 400 invalid_request', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    // The SPEC's decision: a malformed Authorization header is `invalid_request` (400);
    // an absent or blank one means "not authenticated" (401).
    const malformed = ['Bearer', 'Token abc', `Basic ${btoa('alice:pw')}`, `Bearer ${alice.access} extra`, `${alice.access}`];
    for (const path of ['/me', app.at('/sessions/')]) {
      expectClientError(await alice.client.get(path), [401]);
      expectError(await alice.client.get(path, { headers: { authorization: '' } }), 401, 'invalid_token');
      for (const authorization of malformed) {
        const result = await alice.client.get(path, { headers: { authorization } });
        expect(result.status, `${path} with "${authorization.slice(0, 20)}": ${result.text}`).toBe(400);
        expect(result.errorCode, result.text).toBe('invalid_request');
      }
    }
  });

  kit.test('access-token/duplicate-authorization', 'two Authorization headers fail closed with 401', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const twice = { authorization: [`Bearer ${alice.access}`, `Bearer ${alice.access}`] };
    for (const [method, path] of [
      ['GET', '/me'],
      ['GET', app.at('/sessions/')],
      ['POST', app.at('/logout/')],
    ] as const) {
      const result = await rawRequest(app.baseUrl, method, path, twice);
      expect(result.status, `${method} ${path}: ${result.text}`).toBe(401);
      expect(result.errorCode, result.text).toMatch(/^[a-z_]+$/);
    }
    // The refused logout changed nothing.
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });
}
