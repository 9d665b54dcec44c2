import { request } from 'node:http';
import { connect } from 'node:net';
import { cookieNames, recordResponse } from './openapi/response-recorder.js';

export interface RawResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly errorCode: string | undefined;
}

/**
 * A request through node:http, for what fetch cannot send: a header repeated on
 * several lines (fetch joins duplicates into one) or no User-Agent at all. An array
 * value goes out as one header line per element.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string | string[]>> = {},
  body?: string,
): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, baseUrl), { method, headers: { ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let errorCode: string | undefined;
        try {
          const parsed = JSON.parse(text) as { error_code?: unknown };
          if (typeof parsed.error_code === 'string') errorCode = parsed.error_code;
        } catch {
          errorCode = undefined;
        }
        const status = res.statusCode ?? 0;
        const headers = Object.entries(res.headers).flatMap(([name, value]) =>
          name === 'set-cookie' || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as const],
        );
        recordResponse(new URL(path, baseUrl), {
          method,
          status,
          headers: Object.fromEntries(headers),
          text,
          setCookieNames: cookieNames(res.headers['set-cookie'] ?? []),
        });
        resolve({ status, headers: res.headers, text, errorCode });
      });
    });
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.setHeader('content-length', Buffer.byteLength(body));
    outgoing.end(body);
  });
}

/**
 * Writes `head` (request line and headers, CRLF-separated, without the blank line) and
 * `body` on a fresh socket, exactly as given: for request targets no URL class would
 * keep (`/auth/./csrf/`, absolute-form). Resolves the status and body text.
 */
export function rawExchange(baseUrl: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const response = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(response)?.[1] ?? 0);
      const split = response.indexOf('\r\n\r\n');
      resolve({ status, text: split === -1 ? '' : response.slice(split + 4) });
    });
  });
}

/** Sends the head and the first bytes of a longer declared body, then drops the connection. */
export function abortedUpload(baseUrl: string, head: string, declaredLength: number, sent: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\nContent-Length: ${declaredLength}\r\n\r\n${sent}`, () => {
        setTimeout(() => socket.destroy(), 50);
      });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}
