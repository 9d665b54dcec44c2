import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './support/example-process.js';
import { parseResponseHead, requestHead, trickle } from './support/raw-socket.js';

const ADAPTERS = (process.env.SESSAUTH_EXAMPLES ?? 'express,fastify,koa,fetch')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// Small, so that a slow client is cut off in seconds (a real argon2id login must still fit in it on a
// loaded machine); the check interval is then 750 ms.
const REQUEST_TIMEOUT_MS = 3_000;
// A failure-path bound, not a speed measurement: the timeout, a check interval, and slack for a busy machine.
const CLOSE_BOUND_MS = REQUEST_TIMEOUT_MS + 4_000;
const JSON_TYPE = { 'content-type': 'application/json' };

describe.each(ADAPTERS)('the %s example as a user runs it', (adapter) => {
  let example: RunningExample;
  const post = (path: string, body: string, headers: Record<string, string> = JSON_TYPE) =>
    fetch(`${example.baseUrl}${path}`, { method: 'POST', headers, body });
  const login = async (username: string, password: string): Promise<string> => {
    const response = await post('/auth/login/', JSON.stringify({ username, password }));
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    example = await startExample(adapter, {
      SESSAUTH_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      SESSAUTH_DEMO_USERS: 'alice:alice-password-1,bob:bob-password-1',
      JWT_REFRESH_TOKEN_TRANSPORT: 'body',
      JWT_LOGIN_THROTTLE_RATE: '100/min',
    });
  });
  afterAll(async () => {
    await example?.stop();
  });

  it('serves the demo page under a strict CSP that admits only its own inline script and style, no framing, nosniff', async () => {
    const response = await fetch(`${example.baseUrl}/`);
    const html = await response.text();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = new Map(
      (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'", hashOf(html, 'script')]);
    expect(csp.get('style-src')).toEqual([hashOf(html, 'style')]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    const client = await fetch(`${example.baseUrl}/sessauth-client.js`);
    expect(client.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('POST /me/password: JSON {current_password, new_password}; the current one is re-checked; then every session ends', async () => {
    const unauthenticated = await post('/me/password', JSON.stringify({ current_password: 'alice-password-1', new_password: 'x'.repeat(12) }));
    expect(unauthenticated.status).toBe(401);
    const access = await login('alice', 'alice-password-1');
    const change = (body: unknown, type = 'application/json') =>
      post('/me/password', JSON.stringify(body), { 'content-type': type, authorization: `Bearer ${access}` });
    const answer = async (response: Response) => [response.status, ((await response.json()) as { error_code: string }).error_code];

    expect(await answer(await change({ current_password: 'alice-password-1', new_password: 'alice-password-2' }, 'text/plain'))).toEqual([
      415,
      'unsupported_media_type',
    ]);
    expect(await answer(await change({ new_password: 'alice-password-2' }))).toEqual([400, 'invalid_request']);
    expect(await answer(await change({ current_password: 'wrong-password', new_password: 'alice-password-2' }))).toEqual([
      401,
      'invalid_credentials',
    ]);
    expect(await answer(await change({ current_password: 'alice-password-1', new_password: 'short' }))).toEqual([400, 'invalid_request']);
    // Nothing above changed anything: the session still works.
    expect((await fetch(`${example.baseUrl}/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);

    const changed = await change({ current_password: 'alice-password-1', new_password: 'alice-password-2' });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe('');
    expect((await fetch(`${example.baseUrl}/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    expect((await post('/auth/login/', JSON.stringify({ username: 'alice', password: 'alice-password-1' }))).status).toBe(401);
    await login('alice', 'alice-password-2');
  });

  it('a client sending its body (or its headers) one byte a second is cut off within the request timeout', async () => {
    const access = await login('bob', 'bob-password-1');
    const body = JSON.stringify({ username: 'bob', password: 'bob-password-1' });
    const slowBody = (path: string, extra: Record<string, string> = {}) =>
      trickle(
        example.port,
        requestHead('POST', path, { ...JSON_TYPE, 'content-length': String(body.length), ...extra }),
        body,
        1_000,
        CLOSE_BOUND_MS,
      );
    const [loginBody, passwordBody, headers] = await Promise.all([
      slowBody('/auth/login/'),
      slowBody('/me/password', { authorization: `Bearer ${access}` }),
      trickle(example.port, '', requestHead('GET', '/me', { authorization: `Bearer ${access}` }), 1_000, CLOSE_BOUND_MS),
    ]);
    for (const outcome of [loginBody, passwordBody, headers]) {
      expect(outcome.closed).toBe(true);
      // Node answers 408 when it gives up before the application has answered.
      if (outcome.received !== '') expect(parseResponseHead(outcome.received).status).toBe(408);
    }
  });

  it('an oversized body gets 413 with Connection: close, and the socket is closed without reading the rest', async () => {
    const access = await login('bob', 'bob-password-1');
    const chunk = 'x'.repeat(20_000); // over the 16 KiB bound, far short of what is announced
    const declared = trickle(
      example.port,
      requestHead('POST', '/auth/login/', { ...JSON_TYPE, 'content-length': '1000000' }) + chunk,
      'y'.repeat(100),
      200,
      CLOSE_BOUND_MS,
    );
    const chunked = trickle(
      example.port,
      requestHead('POST', '/me/password', { ...JSON_TYPE, 'transfer-encoding': 'chunked', authorization: `Bearer ${access}` }) +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
      'y'.repeat(100),
      200,
      CLOSE_BOUND_MS,
    );
    for (const outcome of await Promise.all([declared, chunked])) {
      const { status, headers } = parseResponseHead(outcome.received);
      expect(status).toBe(413);
      expect(headers.get('connection')).toBe('close');
      expect(outcome.closed).toBe(true);
    }
  });
});

/** `'sha256-…'` of the page's inline `<script …>` or `<style>`, as a CSP source. */
function hashOf(html: string, tag: 'script' | 'style'): string {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
  expect(match).not.toBeNull();
  return `'sha256-${createHash('sha256').update(match![1]!, 'utf8').digest('base64')}'`;
}
