import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { requireAuth, sendSessauthResponse, sessauthMiddleware, toSessauthRequest } from '../src/index.js';
import { createAdapterTestEngine as testEngine, type AdapterTestUser as TestUser } from '@sessauth/conformance';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function listen(app: Koa): Promise<string> {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const login = (base: string) =>
  fetch(`${base}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: 'pw' }),
  });

describe('@sessauth/koa', () => {
  it('types and sets ctx.state.auth behind requireAuth; a failure stops the chain with the core 401', async () => {
    const auth = await testEngine();
    let reached = 0;
    const app = new Koa();
    app.use(sessauthMiddleware(auth));
    app.use(requireAuth(auth)).use((ctx) => {
      expectTypeOf(ctx.state.auth.user).toEqualTypeOf<TestUser>();
      reached += 1;
      ctx.body = { username: ctx.state.auth.user.username, session: ctx.state.auth.session.id };
    });
    const base = await listen(app);
    const refused = await fetch(`${base}/me`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error_code: expect.stringMatching(/^[a-z_]+$/) });
    expect(reached).toBe(0);
    const { access_token: token } = (await (await login(base)).json()) as { access_token: string };
    const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ username: 'alice', session: expect.any(String) });
    expect(reached).toBe(1);
  });

  it("answers an empty-body endpoint 200 (not Koa's 204) and passes other paths on", async () => {
    const auth = await testEngine();
    const app = new Koa();
    app.use(sessauthMiddleware(auth));
    app.use((ctx) => {
      ctx.body = `host ${ctx.path}`;
    });
    const base = await listen(app);
    const { access_token: token } = (await (await login(base)).json()) as { access_token: string };
    const logout = await fetch(`${base}/auth/logout/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('content-length')).toBe('0');
    expect(logout.headers.get('cache-control')).toBe('no-store');
    expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('host /elsewhere');
  });

  it('still logs in behind a body parser mounted first', async () => {
    const auth = await testEngine();
    const app = new Koa();
    // What koa-bodyparser does: consume the stream, leave the result on ctx.request.body.
    app.use(async (ctx, next) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      if (chunks.length > 0) (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString());
      await next();
    });
    app.use(sessauthMiddleware(auth));
    const base = await listen(app);
    const answer = await login(base);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ access_token: expect.any(String) });
  });
});

describe('@sessauth/koa: a session from a host route (createSessionFor)', () => {
  it('toSessauthRequest and sendSessauthResponse from @sessauth/koa alone send the login-shaped 200 and a refresh cookie that refreshes', async () => {
    const auth = await testEngine({ refreshTokenTransport: 'cookie', refreshCookieSecure: false });
    const app = new Koa();
    app.use(sessauthMiddleware(auth));
    app.use(async (ctx, next) => {
      if (ctx.method !== 'POST' || ctx.path !== '/magic-link/verify') return next();
      // A magic link verified by the host: no password, a session for the user it names.
      const created = await auth.createSessionFor('u-alice', { request: toSessauthRequest(ctx.req) });
      sendSessauthResponse(ctx, created.response());
    });
    const base = await listen(app);
    const started = await fetch(`${base}/magic-link/verify`, { method: 'POST', headers: { 'user-agent': 'magic-test' } });
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toContain('no-store');
    const body = (await started.json()) as Record<string, unknown>;
    expect(body.access_token).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('refresh_token');
    const refreshCookie = started.headers.getSetCookie().find((line) => line.startsWith(`${auth.options.refreshCookieName}=`));
    expect(refreshCookie).toContain('HttpOnly');
    const me = await auth.authenticate({ authorization: [`Bearer ${String(body.access_token)}`] });
    expect(me.session.userAgent).toContain('magic-test');

    // The browser's next step: a CSRF token, then the refresh with the cookie the host route set.
    const csrf = await fetch(`${base}/auth/csrf/`);
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrf_token } = (await csrf.json()) as { csrf_token: string };
    const refreshed = await fetch(`${base}/auth/refresh/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': csrf_token, cookie: `${refreshCookie!.split(';')[0]}; ${csrfCookie}` },
      body: '{}',
    });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
  });
});
