import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoUser } from '@sessauth/example-shared';
import type { Sessauth } from '@sessauth/core';

/** The headers every SPA request may carry: JSON bodies, the CSRF token, the access token. */
export const ALLOWED_HEADERS = ['Content-Type', 'X-CSRFToken', 'Authorization'];

/** What an API builder gets: the engine and the one origin its CORS layer lets in. */
export interface CorsApiInput {
  readonly auth: Sessauth<DemoUser>;
  readonly spaOrigin: string;
}

/** One request as the API's socket saw it, with the CORS headers it answered. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly allowOrigin: string | undefined;
  readonly allowCredentials: string | undefined;
}

export interface CorsApi {
  readonly port: number;
  readonly seen: readonly SeenRequest[];
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (the page reaches it as `localhost`) and records every request on
 * the raw Node server, preflights included: Chromium hides an OPTIONS preflight from
 * page-level request events, so the server is where the test sees it.
 */
export async function listenRecorded(server: Server, listen: (port: number) => Promise<void> = (port) => listenOn(server, port)): Promise<CorsApi> {
  const seen: SeenRequest[] = [];
  // First in line, so the framework's own listener has not answered yet.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const sent = headersAtWriteHead(res);
    res.on('finish', () => {
      // Headers set with setHeader stay readable after sending (a bare res.end() never calls writeHead).
      for (const [name, value] of Object.entries(res.getHeaders())) if (!sent.has(name)) sent.set(name, String(value));
      seen.push({
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        status: res.statusCode,
        allowOrigin: sent.get('access-control-allow-origin'),
        allowCredentials: sent.get('access-control-allow-credentials'),
      });
    });
  });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

/**
 * The headers a response is sent with. Fastify and Hono pass theirs to `writeHead`, which
 * Node then writes without keeping (`getHeader` would see nothing), so watch that call.
 */
function headersAtWriteHead(res: ServerResponse): Map<string, string> {
  const sent = new Map<string, string>();
  const writeHead = res.writeHead;
  res.writeHead = ((...args: unknown[]) => {
    const given = args.find((arg, i) => i > 0 && typeof arg === 'object' && arg !== null);
    for (const [name, value] of headerPairs(given)) sent.set(name.toLowerCase(), value);
    return Reflect.apply(writeHead, res, args) as ServerResponse;
  }) as ServerResponse['writeHead'];
  return sent;
}

/** `{ name: value }`, `[[name, value], ...]` or `[name, value, name, value, ...]`, as writeHead takes them. */
function headerPairs(headers: unknown): [string, string][] {
  if (headers === undefined) return [];
  if (!Array.isArray(headers)) return Object.entries(headers as Record<string, unknown>).map(([name, value]) => [name, String(value)]);
  if (headers.every((item) => Array.isArray(item))) return (headers as unknown[][]).map(([name, value]) => [String(name), String(value)]);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), String(headers[i + 1])]);
  return pairs;
}
