import {
  ServerResponse,
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import { SettingsError } from '@sessauth/core';

type OutgoingHeaders = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** How long a client may take, so that a slow or stalled one cannot hold a socket. */
export interface HttpServerLimits {
  /** The whole request, headers and body (Node's default: 300 s). */
  readonly requestTimeoutMs: number;
  /** The request's headers (Node's default: 60 s). */
  readonly headersTimeoutMs: number;
  /** An idle kept-alive connection. Behind a proxy, set it above the proxy's idle timeout. */
  readonly keepAliveTimeoutMs: number;
}

/**
 * `SESSAUTH_REQUEST_TIMEOUT_MS` (default 15 s: the auth bodies are at most 16 KiB),
 * `SESSAUTH_KEEP_ALIVE_TIMEOUT_MS` (default 5 s, Node's own); the headers get
 * 10 s, or the request timeout when that is shorter.
 */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): HttpServerLimits {
  const requestTimeoutMs = millisecondsFrom(env, 'SESSAUTH_REQUEST_TIMEOUT_MS', 15_000);
  return {
    requestTimeoutMs,
    headersTimeoutMs: Math.min(10_000, requestTimeoutMs),
    keepAliveTimeoutMs: millisecondsFrom(env, 'SESSAUTH_KEEP_ALIVE_TIMEOUT_MS', 5_000),
  };
}

/**
 * Sends `Connection: close` with every 413, so Node closes the socket once the
 * answer is written instead of keeping it open to drain the rest of an oversized
 * body. Every framework writes its status line through `writeHead` (explicitly, or
 * implicitly from `end`), so this covers the adapters' answers and the host's.
 * `writeHead` is an own property, not a prototype method: Express swaps the
 * prototype of every response for its own, which would drop an override.
 */
class ClosingAfterTooLargeResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  constructor(request: Request) {
    super(request);
    const writeHead = ServerResponse.prototype.writeHead;
    const closingWriteHead = (statusCode: number, ...rest: [(string | OutgoingHeaders)?, OutgoingHeaders?]): this => {
      if (statusCode === 413 && !this.headersSent) this.setHeader('connection', 'close');
      return Reflect.apply(writeHead, this, [statusCode, ...rest]) as this;
    };
    Object.defineProperty(this, 'writeHead', { value: closingWriteHead, writable: true, configurable: true });
  }
}

/**
 * Node `http.createServer` options of every example: the time limits above, checked
 * every second at most (Node's default check runs every 30 s, which would let a
 * short limit overrun by that much), and the 413 rule.
 */
export function nodeServerOptions(limits: HttpServerLimits): ServerOptions {
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    ServerResponse: ClosingAfterTooLargeResponse,
  };
}

/** An HTTP server for `listener` (Express's app, Koa's callback, Fastify's handler) under those options. */
export function createLimitedServer(limits: HttpServerLimits, listener: RequestListener): Server {
  return createServer(nodeServerOptions(limits), listener);
}

function millisecondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 3_600_000) {
    throw new SettingsError(name, 'must be a whole number of milliseconds from 1 to 3600000');
  }
  return value;
}
