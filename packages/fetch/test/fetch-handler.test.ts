import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/index.js';
import { toResponse } from '../src/fetch-handler.js';
import { createAdapterTestEngine as testEngine } from '@sessauth/conformance';

const BASE = 'http://app.test';
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const LOGIN = { username: 'alice', password: 'pw' };

/** A body stream that never ends by itself, counting the bytes it was asked for. */
function endlessBody(): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1024;
      controller.enqueue(new Uint8Array(1024).fill(97));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

describe('@sessauth/fetch', () => {
  it('resolves null for paths that are not under the prefix', async () => {
    const handler = createFetchHandler(await testEngine());
    expect(await handler.handle(new Request(`${BASE}/me`))).toBeNull();
    expect(await handler.handle(new Request(`${BASE}/authx/login/`))).toBeNull();
    expect((await handler.handle(new Request(`${BASE}/auth/nope/`)))?.status).toBe(404);
  });

  it("sends auth.createSessionFor's login response, with the client facts of a host route's request", async () => {
    const auth = await testEngine({ refreshTokenTransport: 'cookie', refreshCookieSecure: false, trustedProxyCidrs: ['10.0.0.0/8'] });
    const handler = createFetchHandler(auth);
    const signup = new Request(`${BASE}/signup`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.5', 'user-agent': 'curl/8.0' } });
    const created = await auth.createSessionFor('u-alice', { request: handler.sessauthRequest(signup, { remoteAddress: '10.0.0.2' }) });
    const response = handler.toResponse(created.response());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ access_token: created.access_token });
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^refresh_token=${created.refresh_token};`))]);
    expect(await auth.listSessions('u-alice')).toEqual([
      expect.objectContaining({ id: created.session_id, ip_address: '203.0.113.5', user_agent: 'curl/8.0' }),
    ]);
  });

  it('writes each Set-Cookie separately', () => {
    const response = toResponse({ status: 200, headers: {}, setCookies: ['a=1; Path=/; HttpOnly', 'b=2, 3; Path=/x'], body: null });
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2, 3; Path=/x']);
  });

  it('stops reading a body of unknown length at the bound and answers 413', async () => {
    const handler = createFetchHandler(await testEngine({ maxBodyBytes: 4096 }));
    const body = endlessBody();
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.stream, duplex: 'half' };
    const answer = (await handler.handle(new Request(`${BASE}/auth/login/`, init as RequestInit)))!;
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ error_code: 'payload_too_large' });
    expect(body.pulled()).toBeLessThanOrEqual(4096 + 3 * 1024);
    expect(body.cancelled()).toBe(true);
  });

  it('refuses a declared Content-Length over the bound without reading', async () => {
    const handler = createFetchHandler(await testEngine({ maxBodyBytes: 4096 }));
    const body = endlessBody();
    const headers = { 'content-type': 'application/json', 'content-length': '999999' };
    const request = new Request(`${BASE}/auth/login/`, { method: 'POST', headers, body: body.stream, duplex: 'half' } as RequestInit);
    expect((await handler.handle(request))?.status).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });

  it('fails closed on headers Fetch has joined: Authorization 401, Content-Type 415', async () => {
    const handler = createFetchHandler(await testEngine());
    const login = (await handler.handle(new Request(`${BASE}/auth/login/`, json(LOGIN))))!;
    const { access_token: token } = (await login.json()) as { access_token: string };
    const twice = new Headers();
    twice.append('authorization', `Bearer ${token}`);
    twice.append('authorization', `Bearer ${token}`);
    expect((await handler.handle(new Request(`${BASE}/auth/sessions/`, { headers: twice })))?.status).toBe(401);
    await expect(handler.authenticate(new Request(`${BASE}/me`, { headers: twice }))).rejects.toMatchObject({ status: 401 });
    const types = new Headers({ 'content-type': 'application/json' });
    types.append('content-type', 'application/json');
    const joined = await handler.handle(new Request(`${BASE}/auth/login/`, { method: 'POST', headers: types, body: '{}' }));
    expect(joined?.status).toBe(415);
  });

  it('authenticates host requests and turns a failure into the core response', async () => {
    const handler = createFetchHandler(await testEngine());
    const login = (await handler.handle(new Request(`${BASE}/auth/login/`, json(LOGIN))))!;
    const { access_token: token } = (await login.json()) as { access_token: string };
    const context = await handler.authenticate(new Request(`${BASE}/me`, { headers: { authorization: `Bearer ${token}` } }));
    expect(context.user.username).toBe('alice');
    const failure = await handler.authenticate(new Request(`${BASE}/me`)).then(
      () => null,
      (error: unknown) => handler.errorResponse(error),
    );
    expect(failure?.status).toBe(401);
    expect(failure?.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('records the peer from conn first, else from getPeerAddress', async () => {
    const auth = await testEngine({ persistClientIp: true });
    const handler = createFetchHandler(auth, { getPeerAddress: () => '198.51.100.9' });
    const ipOf = async (conn?: { remoteAddress: string }) => {
      const login = (await handler.handle(new Request(`${BASE}/auth/login/`, json(LOGIN)), conn))!;
      const { access_token: token } = (await login.json()) as { access_token: string };
      const list = await handler.handle(new Request(`${BASE}/auth/sessions/`, { headers: { authorization: `Bearer ${token}` } }));
      const sessions = (await list!.json()) as Array<{ ip_address: string | null; is_current: boolean }>;
      return sessions.find((session) => session.is_current)?.ip_address;
    };
    expect(await ipOf({ remoteAddress: '203.0.113.7' })).toBe('203.0.113.7');
    expect(await ipOf()).toBe('198.51.100.9');
  });
});
