import type { IncomingMessage } from 'node:http';
import { SessauthError } from '@sessauth/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readNodeBody, toSessauthRequest, type NodeRequest } from '../src/index.js';
import { bodyOf, listen, rawExchange, reply, statusOf, type Loopback } from './support/loopback.js';

const LIMIT = 32;
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Drains the stream the way a framework's JSON body parser does, then sets `req.body`. */
async function parseLikeAFramework(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/**
 * A server that reads each body through `toSessauthRequest(req).readBody(LIMIT)` and
 * answers 200 with the bytes it got (as hex), or the SessauthError's status and code.
 */
async function bodyEcho(prepare: (req: NodeRequest) => Promise<void> = async () => {}): Promise<Loopback> {
  return listen(async (req: NodeRequest, res) => {
    await prepare(req);
    try {
      const bytes = await toSessauthRequest(req).readBody(LIMIT);
      reply(res, 200, Buffer.from(bytes).toString('hex'));
    } catch (error) {
      if (!(error instanceof SessauthError)) throw error;
      reply(res, error.status, error.code);
    }
  });
}

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const post = (contentLength?: number) =>
  `POST /auth/login/ HTTP/1.1\r\nHost: app.test\r\nContent-Type: application/json${
    contentLength === undefined ? '\r\nTransfer-Encoding: chunked' : `\r\nContent-Length: ${contentLength}`
  }`;
/** One HTTP/1.1 chunk. */
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

describe('readNodeBody over a real socket', () => {
  it('streamed with Content-Length: the exact bytes, multi-byte characters included', async () => {
    server = await bodyEcho();
    const body = '{"u":"é€😀"}';
    const answer = await rawExchange(server.port, post(Buffer.byteLength(body)), [body]);
    expect(statusOf(answer), answer).toBe(200);
    expect(bodyOf(answer)).toBe(hex(body));
  });

  it('streamed in chunks (no Content-Length): the chunks joined, up to exactly the limit', async () => {
    server = await bodyEcho();
    const parts = ['{"a":', '"0123456789', 'abcdefghijklmn"}'];
    expect(Buffer.byteLength(parts.join(''))).toBe(LIMIT);
    const answer = await rawExchange(server.port, post(), [...parts.map(chunk), '0\r\n\r\n']);
    expect(statusOf(answer), answer).toBe(200);
    expect(bodyOf(answer)).toBe(hex(parts.join('')));
  });

  it('a declared Content-Length over the limit is 413 payload_too_large before any byte is read', async () => {
    server = await bodyEcho();
    // The head alone: the body is never sent, so a reader that waited for it would hang the test.
    const answer = await rawExchange(server.port, post(LIMIT + 1));
    expect(statusOf(answer), answer).toBe(413);
    expect(bodyOf(answer)).toBe('payload_too_large');
  });

  it('a chunked body that grows past the limit is 413, and the 413 reaches the client', async () => {
    server = await bodyEcho();
    const answer = await rawExchange(server.port, post(), [chunk('{"a":"0123456789abcdef'), chunk('ghijklmnopqrstuvwxyz"}'), '0\r\n\r\n']);
    expect(statusOf(answer), answer).toBe(413);
    expect(bodyOf(answer)).toBe('payload_too_large');
  });

  it('an empty body is zero bytes', async () => {
    server = await bodyEcho();
    const answer = await rawExchange(server.port, post(0));
    expect(statusOf(answer), answer).toBe(200);
    expect(bodyOf(answer)).toBe('');
  });
});

describe('readNodeBody after a framework parsed the body (req.body set, stream drained)', () => {
  it('re-serialises a parsed JSON object', async () => {
    server = await bodyEcho(async (req) => {
      req.body = await parseLikeAFramework(req);
    });
    const body = '{ "username" : "alice" }';
    const answer = await rawExchange(server.port, post(Buffer.byteLength(body)), [body]);
    expect(statusOf(answer), answer).toBe(200);
    expect(bodyOf(answer)).toBe(hex('{"username":"alice"}'));
  });

  it('hands over a raw Buffer or string body as its bytes', async () => {
    for (const kind of ['buffer', 'string'] as const) {
      server = await bodyEcho(async (req) => {
        const text = JSON.stringify(await parseLikeAFramework(req));
        req.body = kind === 'buffer' ? Buffer.from(text) : text;
      });
      const answer = await rawExchange(server.port, post(7), ['{"a":1}']);
      expect(statusOf(answer), `${kind}: ${answer}`).toBe(200);
      expect(bodyOf(answer), kind).toBe(hex('{"a":1}'));
      await server.close();
      server = undefined;
    }
  });

  it('a drained stream without req.body reads as empty, not as a hang', async () => {
    server = await bodyEcho(async (req) => {
      await parseLikeAFramework(req);
    });
    const answer = await rawExchange(server.port, post(7), ['{"a":1}']);
    expect(statusOf(answer), answer).toBe(200);
    expect(bodyOf(answer)).toBe('');
  });

  it('readNodeBody is the same function toSessauthRequest uses', async () => {
    server = await listen(async (req: NodeRequest, res) => {
      req.body = { direct: true };
      const bytes = await readNodeBody(req, LIMIT);
      reply(res, 200, Buffer.from(bytes).toString('utf8'));
    });
    const answer = await rawExchange(server.port, 'GET / HTTP/1.1\r\nHost: app.test');
    expect(bodyOf(answer)).toBe('{"direct":true}');
  });
});
