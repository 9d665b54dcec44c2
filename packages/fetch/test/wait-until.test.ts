import { createAdapterTestEngine as testEngine } from '@sessauth/conformance';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { honoRequireAuth, honoSessauth } from '../src/hono.js';
import { createFetchHandler, type WaitUntil } from '../src/index.js';

const LOGIN: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'alice', password: 'pw' }),
};

/** A Workers ExecutionContext stand-in that records what it was handed. */
function executionContext(): WaitUntil & { handed: Promise<unknown>[] } {
  const handed: Promise<unknown>[] = [];
  return { handed, waitUntil: (promise) => void handed.push(promise) };
}

describe('@sessauth/fetch: event handlers outlive the response through ctx.waitUntil', () => {
  it('hands waitUntil a promise that settles only after the login handler has run', async () => {
    const auth = await testEngine();
    const ran: string[] = [];
    auth.on('login', async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ran.push(event.sessionId);
    });
    const ctx = executionContext();
    const response = await createFetchHandler(auth).handle(new Request('http://app.test/auth/login/', LOGIN), undefined, ctx);
    expect(response?.status).toBe(200);
    expect(ran).toEqual([]);
    expect(ctx.handed).toHaveLength(1);
    await Promise.all(ctx.handed);
    expect(ran).toHaveLength(1);
  });

  it('does the same from Hono, through c.executionCtx, for the endpoints and the guard', async () => {
    const auth = await testEngine();
    const handler = createFetchHandler(auth);
    const app = new Hono();
    app.use(honoSessauth(handler));
    app.get('/me', honoRequireAuth(handler), (c) => c.text('ok'));
    const ctx = executionContext();
    const login = await app.fetch(new Request('http://app.test/auth/login/', LOGIN), {}, ctx as never);
    const { access_token } = (await login.json()) as { access_token: string };
    const me = await app.fetch(new Request('http://app.test/me', { headers: { authorization: `Bearer ${access_token}` } }), {}, ctx as never);
    expect(me.status).toBe(200);
    expect(ctx.handed).toHaveLength(2);
  });

  it('works without a ctx (Node, Bun, Deno): no waitUntil is needed there', async () => {
    const auth = await testEngine();
    const response = await createFetchHandler(auth).handle(new Request('http://app.test/auth/login/', LOGIN));
    expect(response?.status).toBe(200);
  });
});
