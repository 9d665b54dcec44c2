import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import type { SuiteKit } from './suite-kit.js';
import { claimSet, claimsOf, forgeToken, tamperSignature, unsignedToken } from './token-forge.js';

/** The session is untouched: its own refresh token still rotates. */
async function expectStillActive(app: TestApp, who: LoggedIn): Promise<void> {
  const result = await app.refresh(who.client, who.refresh);
  expect(result.status, `the session should still be active: ${result.text}`).toBe(200);
}

/** Which refresh tokens the engine must refuse, and what each refusal does to the session. */
export function refreshTokenSuite(kit: SuiteKit): void {
  kit.test('refresh-token/invalid', 'garbage, tampered and mis-issued refresh tokens are invalid_token and revoke nothing', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.refresh);
    const like = (overrides: Record<string, unknown>) => claimSet(app.forge, { sub: claims.sub, sid: claims.sid, jti: claims.jti, ...overrides });
    const tokens = {
      garbage: 'not-a-token',
      'three garbage segments': 'aaa.bbb.ccc',
      tampered: tamperSignature(alice.refresh),
      'wrong audience': await forgeToken(app.forge, 'rt+jwt', like({ aud: 'someone-else' })),
      'audience list': await forgeToken(app.forge, 'rt+jwt', like({ aud: ['someone-else', 'sessauth-conformance-x'] })),
      'wrong issuer': await forgeToken(app.forge, 'rt+jwt', like({ iss: 'https://evil.test' })),
      'other secret': await forgeToken(app.forge, 'rt+jwt', like({}), `${app.forge.secretKey}-other-key-material`),
      'alg none': unsignedToken('rt+jwt', like({})),
      'not yet valid': await forgeToken(app.forge, 'rt+jwt', like({ nbf: Math.floor(app.clock.now().getTime() / 1000) + 3600 })),
    };
    for (const [what, token] of Object.entries(tokens)) {
      const result = await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } });
      expect(`${what}: ${result.status} ${result.errorCode ?? result.text}`).toBe(`${what}: 401 invalid_token`);
    }
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/expired', 'an expired refresh token is expired_token', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.refresh);
    const past = Math.floor(app.clock.now().getTime() / 1000) - 600;
    const token = await forgeToken(
      app.forge,
      'rt+jwt',
      claimSet(app.forge, {
        sub: claims.sub,
        sid: claims.sid,
        jti: claims.jti,
        iat: past,
        nbf: past,
        exp: past + 60,
      }),
    );
    expectError(await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } }), 401, 'expired_token');
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/access-token', 'an access token on refresh is 400 invalid_token_type', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const result = await app.client().post(app.at('/refresh/'), { json: { refresh_token: alice.access } });
    expectError(result, 400, 'invalid_token_type');
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/typ-exact', 'a refresh token is recognised by typ rt+jwt exactly', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.refresh);
    for (const typ of ['application/rt+jwt', 'RT+JWT', 'JWT']) {
      const token = await forgeToken(app.forge, typ, claimSet(app.forge, { sub: claims.sub, sid: claims.sid, jti: claims.jti }));
      const result = await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } });
      expect([400, 401], `typ ${typ}: ${result.text}`).toContain(result.status);
      expect(['invalid_token', 'invalid_token_type'], `typ ${typ}`).toContain(result.errorCode);
    }
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/foreign-sub', 'a refresh token whose sub does not own the session is invalid_token and revokes nothing', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    await app.login('bob');
    const claims = claimsOf(alice.refresh);
    const token = await forgeToken(app.forge, 'rt+jwt', claimSet(app.forge, { sub: app.users.bob.id, sid: claims.sid, jti: claims.jti }));
    expectError(await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } }), 401, 'invalid_token');
    expect((await app.store.findSession(alice.sessionId))?.expiredAt).toBeNull();
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/no-jti', 'a refresh token without jti is invalid_token and revokes nothing', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.refresh);
    const token = await forgeToken(app.forge, 'rt+jwt', claimSet(app.forge, { sub: claims.sub, sid: claims.sid, jti: undefined }));
    expectError(await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } }), 401, 'invalid_token');
    await expectStillActive(app, alice);
  });

  kit.test('refresh-token/unknown-jti', 'a well-signed token with a jti the session never issued is reuse: the session is revoked', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const claims = claimsOf(alice.refresh);
    const token = await forgeToken(app.forge, 'rt+jwt', claimSet(app.forge, { sub: claims.sub, sid: claims.sid }));
    expectError(await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } }), 401, 'token_reuse_detected');
    expectError(await app.refresh(alice.client, alice.refresh), 401, 'session_expired');
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(401);
  });

  kit.test('refresh-token/unknown-session', 'a well-signed token for a session that does not exist is refused', async () => {
    const app = await kit.start();
    const token = await forgeToken(app.forge, 'rt+jwt', claimSet(app.forge, { sub: app.users.alice.id, sid: 'no-such-session-id' }));
    const result = await app.client().post(app.at('/refresh/'), { json: { refresh_token: token } });
    expectError(result, 401, ['session_not_found', 'session_expired', 'invalid_token']);
  });

  kit.test('refresh-token/too-long', 'a 9000-character refresh token is invalid_token', async () => {
    const app = await kit.start();
    const result = await app.client().post(app.at('/refresh/'), { json: { refresh_token: 'a'.repeat(9000) } });
    expectError(result, 401, 'invalid_token');
  });
}
