import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import type { SessauthConfig } from '../src/engine/sessauth.js';
import { IntegrationError } from '../src/errors/sessauth-error.js';
import { openApiDocument } from '../src/openapi/openapi-document.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { sessauthRequest, silentLogger, plainHasher, testUsers, type TestUser } from './helpers/sessauth-harness.js';

/** A magic-link app: no passwords, so no authenticator. */
function config(extra: Partial<SessauthConfig<TestUser>> = {}): SessauthConfig<TestUser> {
  return {
    options: { secretKey: 'a-test-secret-that-is-long-enough-for-hs256!', issuer: 'https://issuer.test', audience: 'test' },
    store: new MemorySessionStore(),
    users: testUsers,
    geolocation: null,
    logger: silentLogger,
    ...extra,
  };
}

const loginRequest = (method: string) =>
  sessauthRequest({
    method,
    path: '/auth/login/',
    headers: { 'content-type': 'application/json' },
    ...(method === 'POST' ? { body: JSON.stringify({ username: 'alice', password: 'alice-password' }) } : {}),
  });

describe('createSessauth without an authenticator', () => {
  it('has no login route: POST and GET /auth/login/ answer 404 not_found, as any unknown path', async () => {
    const auth = await createSessauth(config());
    for (const method of ['POST', 'GET']) {
      const response = await auth.handle(loginRequest(method));
      expect(response?.status, method).toBe(404);
      expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'not_found' });
    }
  });

  it('leaves the login route out of its OpenAPI description; with an authenticator it is there', async () => {
    const without = await createSessauth(config());
    expect(Object.keys(openApiDocument(without.openApiSettings).paths)).not.toContain('/auth/login/');
    expect(Object.keys(openApiDocument(without.openApiSettings).paths)).toContain('/auth/refresh/');
    const withLogin = await createSessauth(config({ authenticator: createPasswordAuthenticator({ users: testUsers, hasher: plainHasher }) }));
    expect(Object.keys(openApiDocument(withLogin.openApiSettings).paths)).toContain('/auth/login/');
    expect((await withLogin.handle(loginRequest('POST')))?.status).toBe(200);
  });

  it('createSessionFor starts a session the guard and the refresh endpoint accept', async () => {
    const auth = await createSessauth(config());
    const created = await auth.createSessionFor('user-alice', { userAgent: 'test', ip: null });
    const caller = await auth.authenticate({ authorization: [`Bearer ${created.access_token}`] });
    expect(caller.session.userId).toBe('user-alice');
    const refreshed = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: created.refresh_token }),
      }),
    );
    expect(refreshed?.status).toBe(200);
  });

  it('the admin listing, which signs in with a password, refuses to start without one', async () => {
    await expect(createSessauth(config({ admin: { isAdmin: (user) => user.admin } }))).rejects.toBeInstanceOf(IntegrationError);
  });
});
