import { Agent, request } from 'node:http';
import type { IssuedTokens } from './history.js';

/** An answer as the client saw it; `timeout`/`error` when none came (or the socket broke). */
export interface Answer {
  readonly status: number | 'timeout' | 'error';
  readonly code: string | null;
  readonly body: string;
  readonly start: number;
  readonly end: number;
  /** The token pair of a 200 login or refresh. */
  readonly issued: IssuedTokens | null;
}

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly json?: unknown;
  readonly access?: string;
  /** Sent as X-Forwarded-For (loopback is a trusted proxy): the client's own address. */
  readonly ip: string;
}

/** The session id (`sid` claim) of a token, read without verifying it (the server does that). */
export function sidOf(token: string): string | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sid?: unknown };
    return typeof claims.sid === 'string' ? claims.sid : null;
  } catch {
    return null;
  }
}

/**
 * Keep-alive connections, as a client library keeps them. A socket idle for 4 s
 * is dropped before the server's 5 s keep-alive timeout can close it under a request.
 */
const agent = new Agent({ keepAlive: true, timeout: 4000 });

/**
 * Sends one request (node:http: a third of the CPU of `fetch`, which matters for
 * the races' tens of thousands of requests). `limitMs` only stops waiting for good
 * (the checker bounds answers much tighter, from `start` and `end`).
 */
export function send(baseUrl: string, spec: RequestSpec, limitMs: number): Promise<Answer> {
  const start = Date.now();
  return exchange(baseUrl, spec, limitMs, true).then(
    ({ status, body }) => {
      const parsed = parseObject(body);
      const code = typeof parsed?.error_code === 'string' ? parsed.error_code : null;
      return { status, code, body: body.slice(0, 300), start, end: Date.now(), issued: issuedFrom(status, parsed) };
    },
    (error: Error & { code?: string }) => ({
      status: error.code === 'ETIMEDOUT' ? 'timeout' : 'error',
      code: null,
      body: `${error.name}: ${error.message}`.slice(0, 300),
      start,
      end: Date.now(),
      issued: null,
    }),
  );
}

function exchange(baseUrl: string, spec: RequestSpec, limitMs: number, mayRetry: boolean): Promise<{ status: number; body: string }> {
  const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
  const headers: Record<string, string | number> = { 'x-forwarded-for': spec.ip };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (spec.access !== undefined) headers.authorization = `Bearer ${spec.access}`;
  return new Promise((resolve, reject) => {
    const req = request(new URL(spec.path, baseUrl), { method: spec.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${limitMs} ms`), { code: 'ETIMEDOUT' })), limitMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      // A kept-alive socket the server closed just as it was reused: the request
      // never reached the server (Node's documented case), so sending it again is safe.
      if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET') resolve(exchange(baseUrl, spec, limitMs, false));
      else reject(error);
    });
    req.end(body);
  });
}

function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function issuedFrom(status: number, body: Record<string, unknown> | null): IssuedTokens | null {
  if (status !== 200 || body === null) return null;
  const { access_token: access, refresh_token: refresh } = body;
  if (typeof access !== 'string' || typeof refresh !== 'string') return null;
  const sid = sidOf(access);
  return sid === null ? null : { sid, access, refresh };
}
