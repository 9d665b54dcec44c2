import { mountedDpopTest } from './dpop-suite.js';
import { expect } from 'vitest';
import { cookieNamed, expectCookieCleared, expectEmptyOk, expectError } from './expectations.js';
import { field } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

const MOUNT = '/api';

/**
 * The adapter mounted under a path the framework's own way (`app.use('/api', ...)`, koa-mount,
 * a Fastify prefix, Hono `basePath`), in cookie transport, driven as a browser does: the
 * jar sends the refresh cookie only where its Path says, so a cookie left on the unmounted
 * `/auth/refresh/` fails the refresh exactly as it fails in a browser.
 */
export function mountSuite(kit: SuiteKit): void {
  kit.test('mount/cookie-flow', 'mounted under /api: login, refresh by cookie on Path /api/auth/refresh/, logout', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' }, { mountPath: MOUNT });
    const { refreshCookieName, csrfCookieName, prefix } = app.auth.options;
    const client = app.client();
    await client.fetchCsrf(`${MOUNT}${prefix}`);
    const login = await client.post(`${MOUNT}${prefix}/login/`, {
      json: { username: 'alice', password: app.users.passwords.alice },
      csrf: true,
    });
    expect(login.status, login.text).toBe(200);
    expect(field(login.body, 'refresh_token')).toBeUndefined();
    expect(cookieNamed(login, refreshCookieName)?.attributes.get('path')).toBe(`${MOUNT}${prefix}/refresh/`);
    // The page's script reads the CSRF cookie wherever it is served: it stays on Path /.
    expect(client.jar.headerFor('/')).toContain(`${csrfCookieName}=`);

    const refreshed = await client.post(`${MOUNT}${prefix}/refresh/`, { json: {}, csrf: true });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(cookieNamed(refreshed, refreshCookieName)?.attributes.get('path')).toBe(`${MOUNT}${prefix}/refresh/`);
    const access = field(refreshed.body, 'access_token');
    if (typeof access !== 'string') throw new Error(`no access_token in ${refreshed.text}`);
    const me = await client.get('/me', { bearer: access });
    expect(me.status, me.text).toBe(200);
    const list = await client.get(`${MOUNT}${prefix}/sessions/`, { bearer: access });
    expect(list.status, list.text).toBe(200);

    // Not served at the unmounted path: the host's own 404, not the core's JSON.
    const unmounted = await client.get(`${prefix}/csrf/`);
    expect(unmounted.status).toBe(404);
    expect(unmounted.errorCode).toBeUndefined();

    const logout = await client.post(`${MOUNT}${prefix}/logout/`, { bearer: access, csrf: true });
    expectEmptyOk(logout);
    // Cleared on the Path it was set on, or a browser would keep it.
    expectCookieCleared(logout, refreshCookieName, `${MOUNT}${prefix}/refresh/`);
    expect(client.jar.headerFor(`${MOUNT}${prefix}/refresh/`) ?? '').not.toContain(`${refreshCookieName}=`);
    expectError(await client.post(`${MOUNT}${prefix}/refresh/`, { json: {}, csrf: true }), 401, 'invalid_token');
    expect((await client.get('/me', { bearer: access })).status).toBe(401);
  });
  mountedDpopTest(kit, MOUNT);
}
