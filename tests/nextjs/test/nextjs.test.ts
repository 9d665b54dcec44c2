import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@sessauth/browser-support';
import { buildFixture, startFixture, type StartedApp } from './next-app.js';

// A real Next.js App Router app (fixture/): app/auth/[...sessauth]/route.ts exports
// nextRouteHandlers(getAuth), app/api/me and app/whoami read getSession, proxy.ts guards
// /api/private/*. Built once, started once per refresh token transport.

const LOGIN = { username: 'alice', password: 'correct horse' };
const CLIENT_IP = '203.0.113.7';

let body: StartedApp;
let cookie: StartedApp;
let accessCookie: StartedApp;
let browser: Browser | null = null;

beforeAll(async () => {
  await buildFixture();
  // Body transport, no peer address: what a bare `next start` gives the core.
  body = await startFixture({ JWT_REFRESH_TOKEN_TRANSPORT: 'body' });
  // Cookie transport behind a proxy the app trusts: the route names it as the peer.
  cookie = await startFixture({
    JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
    JWT_REFRESH_COOKIE_SECURE: 'false',
    JWT_TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
    SESSAUTH_FIXTURE_PROXY_ADDRESS: '127.0.0.1',
  });
  // The access-token cookie on, with every cookie Secure as by default: Chromium keeps Secure
  // cookies of http://localhost (a secure context), so development needs no setting changed.
  accessCookie = await startFixture({ JWT_REFRESH_TOKEN_TRANSPORT: 'cookie', JWT_ACCESS_TOKEN_COOKIE: 'true' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([body?.stop(), cookie?.stop(), accessCookie?.stop()]);
});

const postJson = (url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload), redirect: 'manual' });
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const tokensOf = async (response: Response): Promise<{ access_token: string; refresh_token?: string }> => {
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token?: string };
};

describe('Next.js App Router, body transport', () => {
  it('logs in, guards host routes, refreshes and logs out through the catch-all route', async () => {
    const { origin } = body;
    const login = await tokensOf(await postJson(`${origin}/auth/login/`, LOGIN, { 'x-forwarded-for': CLIENT_IP }));
    expect(login.refresh_token).toEqual(expect.any(String));

    const me = await fetch(`${origin}/api/me`, { headers: bearer(login.access_token) });
    expect(me.status).toBe(200);
    // No peer address in a route handler: the client's X-Forwarded-For is not believed, no IP is recorded.
    expect(await me.json()).toEqual({ user: 'alice', session_id: expect.any(String), ip: null });

    const refreshed = await tokensOf(await postJson(`${origin}/auth/refresh/`, { refresh_token: login.refresh_token }));
    expect(refreshed.refresh_token).not.toBe(login.refresh_token);
    const reused = await postJson(`${origin}/auth/refresh/`, { refresh_token: login.refresh_token });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ error_code: 'token_reuse_detected' });
  });

  it('getSession is null, never an error, without a token or with a bad one', async () => {
    const { origin } = body;
    expect((await fetch(`${origin}/api/me`)).status).toBe(401);
    const garbage = await fetch(`${origin}/api/me`, { headers: bearer('not.a.token') });
    expect(garbage.status).toBe(401);
    expect(await garbage.json()).toEqual({ error_code: 'not_authenticated' });
  });

  it('ends the session at logout: the guard of host routes refuses its access token', async () => {
    const { origin } = body;
    const { access_token: token } = await tokensOf(await postJson(`${origin}/auth/login/`, LOGIN));
    expect((await fetch(`${origin}/api/me`, { headers: bearer(token) })).status).toBe(200);
    const sessions = await fetch(`${origin}/auth/sessions/`, { headers: bearer(token) });
    expect(sessions.status).toBe(200);
    expect(sessions.headers.get('cache-control')).toBe('no-store');

    const logout = await fetch(`${origin}/auth/logout/`, { method: 'POST', headers: bearer(token) });
    expect(logout.status).toBe(200);
    expect((await fetch(`${origin}/api/me`, { headers: bearer(token) })).status).toBe(401);
  });

  it('a server component sees the session only when the request for the page carries the bearer', async () => {
    const { origin } = body;
    const { access_token: token } = await tokensOf(await postJson(`${origin}/auth/login/`, LOGIN));
    expect(await (await fetch(`${origin}/whoami`, { headers: bearer(token) })).text()).toContain('signed in as alice');
    expect(await (await fetch(`${origin}/whoami`)).text()).toContain('anonymous');
  });

  it('the proxy (middleware) guards /api/private with getSession on the same engine', async () => {
    const { origin } = body;
    const { access_token: token } = await tokensOf(await postJson(`${origin}/auth/login/`, LOGIN));
    const allowed = await fetch(`${origin}/api/private/ping`, { headers: bearer(token) });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ pong: true, user: 'alice' });
    expect((await fetch(`${origin}/api/private/ping`)).status).toBe(401);
  });

  it("answers the core's JSON 404 under the prefix, and OPTIONS with the methods", async () => {
    const { origin } = body;
    const missing = await fetch(`${origin}/auth/nope/`, { redirect: 'manual' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error_code: 'not_found' });
    const options = await fetch(`${origin}/auth/login/`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toContain('PATCH');
  });
});

describe('Next.js App Router, cookie transport behind a trusted proxy', () => {
  it('needs X-CSRFToken, keeps the refresh token in its cookie and records the forwarded client IP', async () => {
    const { origin } = cookie;
    const csrf = await fetch(`${origin}/auth/csrf/`);
    expect(csrf.status).toBe(200);
    const { csrf_token: csrfToken } = (await csrf.json()) as { csrf_token: string };
    const csrfCookie = csrf.headers
      .getSetCookie()
      .find((line) => line.startsWith('csrftoken='))
      ?.split(';')[0];
    expect(csrfCookie).toBeDefined();

    const refused = await postJson(`${origin}/auth/login/`, LOGIN, { cookie: csrfCookie! });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error_code: 'csrf_failed' });

    const csrfHeaders = { cookie: csrfCookie!, 'x-csrftoken': csrfToken };
    const login = await postJson(`${origin}/auth/login/`, LOGIN, { ...csrfHeaders, 'x-forwarded-for': CLIENT_IP });
    const refreshCookie = login.headers.getSetCookie().find((line) => line.startsWith('refresh_token='));
    expect(refreshCookie).toMatch(/HttpOnly/i);
    const { access_token: token, refresh_token: inBody } = await tokensOf(login);
    expect(inBody).toBeUndefined();

    const me = await fetch(`${origin}/api/me`, { headers: bearer(token) });
    expect(await me.json()).toMatchObject({ user: 'alice', ip: CLIENT_IP });

    // The refresh cookie is no access token: a request carrying only cookies has no session.
    const allCookies = `${csrfCookie!}; ${refreshCookie!.split(';')[0]!}`;
    expect((await fetch(`${origin}/api/me`, { headers: { cookie: allCookies } })).status).toBe(401);

    const refreshed = await postJson(`${origin}/auth/refresh/`, {}, { cookie: allCookies, 'x-csrftoken': csrfToken });
    const { access_token: next } = await tokensOf(refreshed);
    expect(refreshed.headers.getSetCookie().some((line) => line.startsWith('refresh_token='))).toBe(true);

    const logout = await fetch(`${origin}/auth/logout/`, { method: 'POST', headers: bearer(next) });
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie().some((line) => /^refresh_token=;/.test(line) || /Max-Age=0/i.test(line))).toBe(true);
    expect((await fetch(`${origin}/api/me`, { headers: bearer(next) })).status).toBe(401);
  });
});

describe('Next.js App Router, the access-token cookie (JWT_ACCESS_TOKEN_COOKIE), in Chromium', () => {
  it('a server component renders the user on a plain page load; after a revocation the next load renders signed out', async (context) => {
    if (browser === null) return context.skip('Chromium is unavailable');
    // localhost, not 127.0.0.1: the name a developer opens, and a secure context for Secure cookies.
    const origin = accessCookie.origin.replace('127.0.0.1', 'localhost');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/whoami`);
    expect(await page.textContent('#who')).toBe('anonymous');

    // The page signs in as a client does: the CSRF token, then the login, same-origin.
    const status = await page.evaluate(async (credentials) => {
      const { csrf_token: csrf } = (await (await fetch('/auth/csrf/')).json()) as { csrf_token: string };
      const login = await fetch('/auth/login/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrftoken': csrf },
        body: JSON.stringify(credentials),
      });
      return login.status;
    }, LOGIN);
    expect(status).toBe(200);
    const stored = (await page.context().cookies()).find((c) => c.name === 'access_token');
    expect(stored).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    // A plain navigation: no script, no Authorization header, only what the browser attaches.
    await page.goto(`${origin}/whoami`);
    expect(await page.textContent('#who')).toBe('signed in as alice');

    // Another device ends every session of alice; the browser still holds its cookie.
    const { access_token: other } = await tokensOf(
      await (async () => {
        const csrf = await fetch(`${accessCookie.origin}/auth/csrf/`);
        const { csrf_token: token } = (await csrf.json()) as { csrf_token: string };
        const jar = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
        return postJson(`${accessCookie.origin}/auth/login/`, LOGIN, { cookie: jar, 'x-csrftoken': token });
      })(),
    );
    expect((await fetch(`${accessCookie.origin}/auth/logout/all/`, { method: 'POST', headers: bearer(other) })).status).toBe(200);
    expect((await page.context().cookies()).some((c) => c.name === 'access_token')).toBe(true);

    await page.reload();
    expect(await page.textContent('#who')).toBe('anonymous');
    await page.context().close();
  });
});
