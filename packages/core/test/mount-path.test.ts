import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/openapi-document.js';
import { mountedOptions, resolveMount } from '../src/http/mount-path.js';
import type { SessauthRequest } from '../src/http/sessauth-request.js';
import { cookiesSet, createHarness, sessauthRequest, setCookieLine, USERS, type RequestInit } from './helpers/sessauth-harness.js';

const PREFIXES = ['/auth'];

describe('resolveMount: where a framework mounted the adapter', () => {
  it('is the reported mount when the path lies under it plus the prefix', () => {
    expect(resolveMount('/api/auth/login/', '/api', PREFIXES)).toBe('/api');
    expect(resolveMount('/api/v1/auth/login/', '/api/v1/', PREFIXES)).toBe('/api/v1');
  });

  it('cuts a mount that swallowed the prefix back to the root (app.use("/auth"), a wildcard such as Nest forRoutes("*"))', () => {
    expect(resolveMount('/auth/login/', '/auth', PREFIXES)).toBe('');
    expect(resolveMount('/auth/login/', '/auth/login/', PREFIXES)).toBe('');
    expect(resolveMount('/api/auth/sessions/x/', '/api/auth/sessions/x', PREFIXES)).toBe('/api');
  });

  it('is null for a path outside every prefix at every candidate mount', () => {
    expect(resolveMount('/api/other/', '/api', PREFIXES)).toBeNull();
    expect(resolveMount('/elsewhere/login/', '/elsewhere/login/', PREFIXES)).toBeNull();
  });

  it("never takes a mount a cookie Path cannot carry: a client-chosen ';' must not reach Set-Cookie", () => {
    // Express app.use('/:tenant', ...) reports the client's segment as the mount.
    expect(resolveMount('/a;Domain=evil.test/auth/login/', '/a;Domain=evil.test', PREFIXES)).toBeNull();
    expect(resolveMount('/a b/auth/login/', '/a b', PREFIXES)).toBeNull();
  });
});

/** GET the CSRF cookie and token at `csrfPath`, then the request init of a CSRF-checked POST. */
async function csrfPost(
  auth: Awaited<ReturnType<typeof createHarness>>['auth'],
  csrfRequest: SessauthRequest,
  init: RequestInit,
): Promise<SessauthRequest> {
  const csrf = await auth.handle(csrfRequest);
  expect(csrf?.status).toBe(200);
  const token = (JSON.parse(csrf!.body!) as { csrf_token: string }).csrf_token;
  const cookie = `${auth.options.csrfCookieName}=${cookiesSet(csrf!).get(auth.options.csrfCookieName)}`;
  return { ...sessauthRequest({ ...init, headers: { ...init.headers, cookie, 'x-csrftoken': token } }), ...mountOf(csrfRequest) };
}

const mountOf = (request: SessauthRequest) => (request.mountPath === undefined ? {} : { mountPath: request.mountPath });
const mounted = (init: RequestInit, mountPath: string): SessauthRequest => ({ ...sessauthRequest(init), mountPath });
const pathOf = (line: string | undefined) => /;\s*Path=([^;]*)/i.exec(line ?? '')?.[1];
const alice = USERS[0]!;
const loginBody = JSON.stringify({ username: alice.username, password: alice.password });

describe('the engine under a mount', () => {
  it('serves under mount + prefix and sets the refresh cookie on the mounted Path; the CSRF cookie stays on /', async () => {
    const { auth } = await createHarness({ options: { refreshTokenTransport: 'cookie' } });
    const request = await csrfPost(auth, mounted({ path: '/api/auth/csrf/' }, '/api'), {
      method: 'POST',
      path: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      body: loginBody,
    });
    const login = await auth.handle(request);
    expect(login?.status, login?.body ?? '').toBe(200);
    expect(pathOf(setCookieLine(login!, auth.options.refreshCookieName))).toBe('/api/auth/refresh/');
    const csrf = await auth.handle(mounted({ path: '/api/auth/csrf/' }, '/api'));
    expect(pathOf(setCookieLine(csrf!, auth.options.csrfCookieName))).toBe('/');
    // Anything else under the mount is the host's.
    expect(await auth.handle(mounted({ path: '/api/other/' }, '/api'))).toBeNull();
    expect(auth.handles('/api/auth/csrf/', '/api')).toBe(true);
    expect(auth.handles('/api/other/', '/api')).toBe(false);
  });

  it('keeps an explicit JWT_REFRESH_COOKIE_PATH as written', async () => {
    const { auth } = await createHarness({ options: { refreshTokenTransport: 'cookie', refreshCookiePath: '/' } });
    expect(mountedOptions(auth.options, '/api').refreshCookiePath).toBe('/');
    expect(mountedOptions(auth.options, '/api').prefix).toBe('/api/auth');
    expect(mountedOptions(auth.options, '')).toBe(auth.options);
  });

  it('serves the admin pages under the mount too, with links and cookie there', async () => {
    const { auth } = await createHarness();
    const form = await auth.handle(mounted({ path: `/api${auth.options.adminPrefix}/sign-in/` }, '/api'));
    expect(form?.status).toBe(200);
    expect(form?.body).toContain(`action="/api${auth.options.adminPrefix}/sign-in/"`);
  });

  it('answers a root request exactly as before when the framework reports no mount', async () => {
    const { auth } = await createHarness();
    const jwks = (extra: Partial<SessauthRequest>) => auth.handle({ ...sessauthRequest({ path: '/auth/jwks.json' }), ...extra });
    expect(await jwks({ mountPath: '' })).toEqual(await jwks({}));
    expect(await jwks({ mountPath: '/auth' })).toEqual(await jwks({}));
  });
});

describe('the OpenAPI description of a mounted app', () => {
  it('names the mount as its server and documents the mounted cookie Path; at the root it is unchanged', () => {
    const settings = { refreshTokenTransport: 'cookie' } as const;
    expect(JSON.stringify(openApiDocument({ ...settings, mountPath: '' }))).toBe(JSON.stringify(openApiDocument(settings)));
    expect(openApiDocument(settings).servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const doc = openApiDocument({ ...settings, mountPath: '/api' });
    expect(doc.servers).toEqual([{ url: '/api', description: expect.any(String) }]);
    expect(Object.keys(doc.paths)).toContain('/auth/login/');
    expect(JSON.stringify(doc.paths['/auth/login/'])).toContain('/api/auth/refresh/');
  });
});
