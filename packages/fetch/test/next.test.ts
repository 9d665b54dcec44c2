import { describe, expect, it } from 'vitest';
import { SessauthError, type Sessauth } from '@sessauth/core';
import { createAdapterTestEngine as testEngine } from '@sessauth/conformance';
import { getSession, nextRouteHandlers } from '../src/next.js';

const BASE = 'http://app.test';
const login = (): Request =>
  new Request(`${BASE}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: 'pw' }),
  });

/**
 * Logs alice in as a browser page does, under `mount`: a CSRF token and cookie from GET csrf/, then the
 * login POST carrying both. Answers the login's response and what the browser then holds.
 */
async function browserLogin(
  routes: ReturnType<typeof nextRouteHandlers>,
  mount = '',
): Promise<{ answer: Response; csrfToken: string; csrfCookie: string }> {
  const csrf = await routes.GET(new Request(`${BASE}${mount}/auth/csrf/`));
  const { csrf_token: csrfToken } = (await csrf.json()) as { csrf_token: string };
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
  const answer = await routes.POST(
    new Request(`${BASE}${mount}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: csrfCookie, 'x-csrftoken': csrfToken },
      body: JSON.stringify({ username: 'alice', password: 'pw' }),
    }),
  );
  return { answer, csrfToken, csrfCookie };
}

/** The Cookie header of a page load after `browserLogin` with JWT_ACCESS_TOKEN_COOKIE: the CSRF and access-token cookies. */
function cookiesAfter({ answer, csrfCookie }: { answer: Response; csrfCookie: string }): string {
  const accessCookie = answer.headers
    .getSetCookie()
    .find((line) => line.startsWith('access_token='))!
    .split(';')[0]!;
  return `${csrfCookie}; ${accessCookie}`;
}

describe('@sessauth/fetch/next', () => {
  it('serves the endpoints from the route exports and builds the engine once, on the first request', async () => {
    const engine = testEngine();
    let built = 0;
    const routes = nextRouteHandlers(() => (built++, engine));
    expect(built).toBe(0);
    const answer = await routes.POST(login());
    expect(answer.status).toBe(200);
    const { access_token: token } = (await answer.json()) as { access_token: string };
    const sessions = await routes.GET(new Request(`${BASE}/auth/sessions/`, { headers: { authorization: `Bearer ${token}` } }));
    expect(sessions.status).toBe(200);
    expect(built).toBe(1);
  });

  it("answers the core's JSON 404 outside the prefix and OPTIONS with the methods", async () => {
    const routes = nextRouteHandlers(await testEngine());
    const outside = await routes.GET(new Request(`${BASE}/elsewhere/login/`));
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ error_code: 'not_found' });
    const options = await routes.OPTIONS(new Request(`${BASE}/auth/login/`, { method: 'OPTIONS' }));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST, DELETE, PATCH, OPTIONS');
  });

  it('in a folder below the root (app/api/auth/[...sessauth]) serves there, with the refresh cookie on that Path', async () => {
    const auth = await testEngine({ refreshTokenTransport: 'both' });
    for (const [routes, mount] of [
      [nextRouteHandlers(auth), '/api'],
      [nextRouteHandlers(auth, { mountPath: '/v2' }), '/v2'],
    ] as const) {
      const { answer } = await browserLogin(routes, mount);
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(answer.headers.getSetCookie().find((line) => line.startsWith('refresh_token='))).toContain(`Path=${mount}/auth/refresh/;`);
    }
    // Outside the prefix at every mount: still the core's 404.
    expect((await nextRouteHandlers(auth).GET(new Request(`${BASE}/api/other/`))).status).toBe(404);
  });

  it('getSession reads the bearer from a Request or from Headers, and is null for none or a bad one', async () => {
    const auth = await testEngine();
    const { access_token: token } = (await (await nextRouteHandlers(auth).POST(login())).json()) as { access_token: string };
    const headers = new Headers({ authorization: `Bearer ${token}` });
    expect((await getSession(auth, new Request(`${BASE}/me`, { headers })))?.user).toMatchObject({ id: expect.any(String) });
    expect((await getSession(Promise.resolve(auth), headers))?.claims.sub).toEqual(expect.any(String));
    expect(await getSession(auth, new Headers())).toBeNull();
    expect(await getSession(auth, new Headers({ authorization: 'Bearer not.a.token' }))).toBeNull();
    expect(await getSession(auth, new Headers({ authorization: 'Basic YWxpY2U6cHc=' }))).toBeNull();
  });

  it('with JWT_ACCESS_TOKEN_COOKIE, getSession reads the cookie of a page load; an unsafe Request by it needs CSRF; off, never', async () => {
    const auth = await testEngine({ refreshTokenTransport: 'cookie', accessTokenCookie: true });
    const login = await browserLogin(nextRouteHandlers(auth));
    const { csrfToken } = login;
    const cookie = cookiesAfter(login);
    // A server component's headers(): read as a page render.
    expect((await getSession(auth, new Headers({ cookie, host: 'app.test' })))?.user).toMatchObject({ id: expect.any(String) });
    // A route handler's POST carrying only the cookie: the CSRF check refuses it (403 rejects, it is no "no session").
    await expect(getSession(auth, new Request(`${BASE}/api/thing`, { method: 'POST', headers: { cookie, host: 'app.test' } }))).rejects.toMatchObject(
      {
        status: 403,
      },
    );
    const withToken = new Request(`${BASE}/api/thing`, {
      method: 'POST',
      headers: { cookie, host: 'app.test', origin: BASE, 'x-csrftoken': csrfToken },
    });
    expect(await getSession(auth, withToken)).not.toBeNull();
    // Off: the same cookie is nothing.
    const off = await testEngine({ refreshTokenTransport: 'cookie' });
    expect(await getSession(off, new Headers({ cookie, host: 'app.test' }))).toBeNull();
  });

  it("with JWT_ACCESS_TOKEN_COOKIE, a server action's headers() (a POST) by the cookie alone is refused; a page render's is not", async () => {
    const auth = await testEngine({ refreshTokenTransport: 'cookie', accessTokenCookie: true });
    const login = await browserLogin(nextRouteHandlers(auth));
    const { csrfToken } = login;
    const cookie = cookiesAfter(login);
    // What headers() holds in a server action, as a browser and Next send it (a form's POST to the page).
    const action = (extra: Record<string, string>): Headers =>
      new Headers({
        accept: 'text/x-component',
        'content-type': 'text/plain;charset=UTF-8',
        'next-action': '7f3a9c0e4b2d1f6a8e5c3b7d9a1e2f4c6b8d0a2e',
        'next-router-state-tree': '%5B%22%22%2C%7B%7D%5D',
        host: 'app.test',
        cookie,
        ...extra,
      });
    // An action posted from another site (the cookie is Lax, but a same-site sibling or a top-level form can send it).
    await expect(getSession(auth, action({ origin: 'http://evil.test' }))).rejects.toMatchObject({ status: 403 });
    // Even from the page's own origin the cookie alone is no CSRF proof: the core's rule wants X-CSRFToken.
    await expect(getSession(auth, action({ origin: BASE }))).rejects.toMatchObject({ status: 403 });
    await expect(getSession(auth, action({}))).rejects.toMatchObject({ status: 403 });
    // A POST route handler given headers() only: the Origin alone says it is no page render.
    await expect(getSession(auth, new Headers({ cookie, host: 'app.test', origin: BASE }))).rejects.toMatchObject({ status: 403 });
    // With the token (as the client sends it) the action is the user's.
    expect((await getSession(auth, action({ origin: BASE, 'x-csrftoken': csrfToken })))?.user).toMatchObject({ id: expect.any(String) });
    // A page render (a GET navigation: no Origin, no Next-Action) still reads the cookie.
    expect((await getSession(auth, new Headers({ cookie, host: 'app.test', referer: `${BASE}/` })))?.user).toMatchObject({ id: expect.any(String) });
    // Opted in: Next's own Origin check stands for the token, but a foreign or missing Origin is still refused.
    const trust = { trustNextActionOriginCheck: true };
    expect((await getSession(auth, action({ origin: BASE }), trust))?.user).toMatchObject({ id: expect.any(String) });
    await expect(getSession(auth, action({ origin: 'http://evil.test' }), trust)).rejects.toMatchObject({ status: 403 });
    await expect(getSession(auth, action({ origin: 'http://app.test.evil.test' }), trust)).rejects.toMatchObject({ status: 403 });
    await expect(getSession(auth, action({}), trust)).rejects.toMatchObject({ status: 403 });
    // The option covers server actions only: a POST route handler's headers() still needs the token.
    await expect(getSession(auth, new Headers({ cookie, host: 'app.test', origin: BASE }), trust)).rejects.toMatchObject({ status: 403 });
  });

  it('getSession rejects on anything but a 401, such as a store fault (fail closed)', async () => {
    const auth = await testEngine();
    const faulty = { ...auth, authenticate: () => Promise.reject(new SessauthError('service_unavailable')) } as Sessauth<unknown>;
    await expect(getSession(faulty, new Headers({ authorization: 'Bearer x' }))).rejects.toMatchObject({ status: 503 });
  });
});
