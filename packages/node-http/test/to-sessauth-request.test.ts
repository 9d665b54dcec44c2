import { createSessauth, MemorySessionStore, SessauthError, type Sessauth } from '@sessauth/core';
import type { SessauthRequest } from '@sessauth/core/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { authorizationValues, toSessauthRequest, writeSessauthResponse } from '../src/index.js';
import { bodyOf, listen, rawExchange, reply, statusOf, type Loopback } from './support/loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a translated request holds, minus the body reader, as JSON. */
function describeRequest(request: SessauthRequest): string {
  const { readBody: _unread, headers, ...rest } = request;
  return JSON.stringify({ ...rest, headers: Object.fromEntries(headers) });
}

/** A server answering every request with the JSON of its translation. */
function translationEcho(): Promise<Loopback> {
  return listen((req, res) => reply(res, 200, describeRequest(toSessauthRequest(req))));
}

/** A translated request as the echo serialises it. */
interface Translated {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string[]>;
  peerAddress: string | null;
  secure: boolean;
}

async function translate(head: string): Promise<Translated> {
  server ??= await translationEcho();
  const answer = await rawExchange(server.port, head);
  expect(statusOf(answer), answer).toBe(200);
  return JSON.parse(bodyOf(answer)) as Translated;
}

describe('toSessauthRequest over a real socket', () => {
  it('keeps every value of a repeated header, in order, under its lower-case name', async () => {
    const request = await translate(
      'POST /auth/login/ HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\ncontent-type: text/plain\r\nX-CSRFToken: a\r\nCookie: x=1\r\nCOOKIE: x=2\r\nContent-Length: 0',
    );
    expect(request.headers['content-type']).toEqual(['application/json', 'text/plain']);
    expect(request.headers.cookie).toEqual(['x=1', 'x=2']);
    expect(request.headers['x-csrftoken']).toEqual(['a']);
    expect(Object.keys(request.headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('splits path and query without decoding either', async () => {
    const request = await translate('GET /auth/sessions/a%2Fb/?x=1&y=%20?z HTTP/1.1\r\nHost: app.test');
    expect(request).toMatchObject({ method: 'GET', path: '/auth/sessions/a%2Fb/', query: 'x=1&y=%20?z' });
    expect((await translate('GET /auth/csrf/ HTTP/1.1\r\nHost: app.test')).query).toBe('');
  });

  it('keeps an absolute-form target whole for the core (scheme and authority included)', async () => {
    const request = await translate('GET http://app.test/auth/csrf/?next=1 HTTP/1.1\r\nHost: app.test');
    expect(request).toMatchObject({ path: 'http://app.test/auth/csrf/', query: 'next=1' });
  });

  it('gives the TCP peer as peerAddress (never a forwarded header) and secure false over plain HTTP', async () => {
    const request = await translate('GET / HTTP/1.1\r\nHost: app.test\r\nX-Forwarded-For: 203.0.113.9');
    expect(request.peerAddress).toBe('127.0.0.1');
    expect(request.secure).toBe(false);
  });

  it('authorizationValues keeps both of two Authorization headers, and is undefined without one', async () => {
    server = await listen((req, res) => reply(res, 200, JSON.stringify(authorizationValues(req) ?? null)));
    const two = await rawExchange(server.port, 'GET /me HTTP/1.1\r\nHost: app.test\r\nAuthorization: Bearer a\r\nauthorization: Bearer b');
    expect(JSON.parse(bodyOf(two))).toEqual(['Bearer a', 'Bearer b']);
    const none = await rawExchange(server.port, 'GET /me HTTP/1.1\r\nHost: app.test');
    expect(JSON.parse(bodyOf(none))).toBeNull();
  });
});

describe('through the engine', () => {
  async function engine(): Promise<Sessauth<{ id: string }>> {
    return createSessauth<{ id: string }>({
      options: { secretKey: 'node-http-test-secret-0123456789abcdefghijklmn', issuer: 'https://issuer.test', audience: 'node-http-test' },
      store: new MemorySessionStore(),
      users: { findById: async () => null, idOf: (user) => user.id, securityStamp: () => 'stamp' },
      authenticator: async () => {
        throw new SessauthError('invalid_credentials');
      },
    });
  }

  async function serveEngine(): Promise<Loopback> {
    const auth = await engine();
    return listen(async (req, res) => {
      const response = await auth.handle(toSessauthRequest(req));
      if (response === null) return reply(res, 404, 'host');
      writeSessauthResponse(res, response);
    });
  }

  it('an absolute-form target is routed like its path: GET http://host/auth/csrf/ is the CSRF endpoint', async () => {
    server = await serveEngine();
    const answer = await rawExchange(server.port, 'GET http://app.test/auth/csrf/ HTTP/1.1\r\nHost: app.test');
    expect(statusOf(answer), answer).toBe(200);
    expect(JSON.parse(bodyOf(answer))).toEqual({ csrf_token: expect.any(String) });
    expect(answer).toMatch(/\r\nset-cookie: csrftoken=/i);
  });

  it('writes each cookie on its own Set-Cookie line, with Content-Length and no-store', async () => {
    server = await serveEngine();
    const answer = await rawExchange(server.port, 'GET /auth/csrf/ HTTP/1.1\r\nHost: app.test');
    const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
    expect(head).toMatch(/\r\ncache-control: no-store/i);
    expect(Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1])).toBe(Buffer.byteLength(bodyOf(answer)));
    expect(head.split('\r\n').filter((line) => /^set-cookie:/i.test(line))).toHaveLength(1);
  });

  it('an oversized declared body is answered 413 by the core without reading it', async () => {
    server = await serveEngine();
    const answer = await rawExchange(
      server.port,
      'POST /auth/login/ HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\nContent-Length: 10000000',
    );
    expect(statusOf(answer), answer).toBe(413);
    expect(JSON.parse(bodyOf(answer))).toMatchObject({ error_code: 'payload_too_large' });
  });

  it('duplicate Content-Type headers reach the core, which refuses them with 415', async () => {
    server = await serveEngine();
    const body = '{"username":"a","password":"b"}';
    const answer = await rawExchange(
      server.port,
      `POST /auth/login/ HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
      [body],
    );
    expect(statusOf(answer), answer).toBe(415);
    expect(JSON.parse(bodyOf(answer))).toMatchObject({ error_code: 'unsupported_media_type' });
  });
});
