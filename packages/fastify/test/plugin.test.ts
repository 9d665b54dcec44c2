import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { getAuth, sendSessauthResponse, sessauthPlugin, sessauthFrameworkErrors, toSessauthRequest } from '../src/index.js';
import type { AuthContext } from '@sessauth/core';
import { createAdapterTestEngine as testEngine, type AdapterTestUser as TestUser } from '@sessauth/conformance';

// The host types `request.auth.user` once, by declaration merging.
declare module '../src/types.js' {
  interface SessauthFastifyTypes {
    user: TestUser;
  }
}

const LOGIN = JSON.stringify({ username: 'alice', password: 'pw' });
let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function start(options: { bodyLimit?: number; frameworkErrors?: boolean; maxBodyBytes?: number } = {}) {
  const auth = await testEngine(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes });
  app = Fastify({
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.frameworkErrors ? { frameworkErrors: sessauthFrameworkErrors(auth) } : {}),
  });
  await app.register(sessauthPlugin, { auth });
  app.post('/echo', async (request) => ({ echoed: request.body }));
  app.get('/me', { preHandler: app.requireAuth }, async (request) => {
    expectTypeOf(request.auth).toEqualTypeOf<AuthContext<TestUser> | null>();
    const { user, session } = getAuth(request);
    expectTypeOf(user).toEqualTypeOf<TestUser>();
    return { username: user.username, session: session.id };
  });
  return app;
}

const login = (host: FastifyInstance, headers: Record<string, string> = {}, payload: string = LOGIN) =>
  host.inject({ method: 'POST', url: '/auth/login/', headers: { 'content-type': 'application/json', ...headers }, payload });

describe('@sessauth/fastify', () => {
  it('leaves the host its own JSON parser outside the plugin', async () => {
    const host = await start();
    const echo = await host.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(echo.json()).toEqual({ echoed: { a: 1 } });
    const wrongType = await host.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
    expect(wrongType.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect((await login(host)).statusCode).toBe(200);
  });

  it("answers a huge body with the core 413, not Fastify's own error, whatever the host bodyLimit", async () => {
    const host = await start({ bodyLimit: 10, maxBodyBytes: 1024 });
    // Over the host's bodyLimit but within the core's bound: Fastify never applies its limit here.
    expect((await login(host)).statusCode).toBe(200);
    const huge = JSON.stringify({ username: 'alice', password: 'x'.repeat(5000) });
    const declared = await login(host, {}, huge);
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ error_code: 'payload_too_large' });
    expect(declared.headers['cache-control']).toBe('no-store');
    // A chunked body of unknown length, on a real socket: the core stops reading at its bound.
    const chunked = await postChunked(await host.listen({ port: 0, host: '127.0.0.1' }), 4 * 1024 * 1024);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text)).toMatchObject({ error_code: 'payload_too_large' });
  });

  it('keeps the core 415 for a Content-Type that Fastify itself would refuse', async () => {
    const host = await start();
    for (const type of ['application/json, text/plain', 'text/plain;;;', 'nonsense']) {
      const answer = await login(host, { 'content-type': type });
      expect(answer.statusCode, type).toBe(415);
      expect(answer.json(), type).toEqual(expect.objectContaining({ error_code: 'unsupported_media_type' }));
    }
  });

  it('decorates the host with requireAuth and request.auth', async () => {
    const host = await start();
    expect((await host.inject({ url: '/me' })).json()).toMatchObject({ error_code: expect.any(String) });
    const { access_token: token } = (await login(host)).json<{ access_token: string }>();
    const me = await host.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'alice', session: expect.any(String) });
  });

  it("lets the core answer URLs that Fastify's router refuses, when the host opts in", async () => {
    const bare = await start();
    expect((await bare.inject({ method: 'DELETE', url: '/auth/sessions/%ZZ/' })).json()).toMatchObject({ code: 'FST_ERR_BAD_URL' });
    await bare.close();
    const host = await start({ frameworkErrors: true });
    // The core's answer: authentication first (any session id, malformed or not).
    const ours = await host.inject({ method: 'DELETE', url: '/auth/sessions/%ZZ/' });
    expect(ours.statusCode).toBe(401);
    expect(ours.json()).toMatchObject({ error_code: 'invalid_token' });
    // Outside the prefix Fastify's own answer stands.
    expect((await host.inject({ url: '/x%ZZ' })).json()).toMatchObject({ code: 'FST_ERR_BAD_URL' });
  });
});

/** POSTs `size` bytes to the login endpoint with `Transfer-Encoding: chunked` (no Content-Length). */
function postChunked(baseUrl: string, size: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    const outgoing = request(new URL('/auth/login/', baseUrl), { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      for (; sent < size; sent += chunk.length) if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
      outgoing.end();
    };
    pump();
  });
}

describe('@sessauth/fastify: a session from a host route (createSessionFor)', () => {
  it('toSessauthRequest and sendSessauthResponse from @sessauth/fastify alone send the login-shaped 200 with the refresh cookie', async () => {
    const auth = await testEngine({ refreshTokenTransport: 'cookie', refreshCookieSecure: false });
    app = Fastify();
    await app.register(sessauthPlugin, { auth });
    app.post('/magic-link/verify', async (request, reply) => {
      const created = await auth.createSessionFor('u-alice', { request: toSessauthRequest(request.raw) });
      return sendSessauthResponse(reply, created.response());
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const started = await fetch(`${base}/magic-link/verify`, { method: 'POST', headers: { 'user-agent': 'magic-test' } });
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toContain('no-store');
    const body = (await started.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('refresh_token');
    expect(started.headers.getSetCookie().some((line) => line.startsWith(`${auth.options.refreshCookieName}=`))).toBe(true);
    const caller = await auth.authenticate({ authorization: [`Bearer ${String(body.access_token)}`] });
    expect(caller.session.userAgent).toContain('magic-test');
  });
});
