import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AuthenticateInput } from '@sessauth/core';

/**
 * What the core's guard reads from a Node request, in one pass over `rawHeaders`: every
 * `Authorization` value, and for DPoP (JWT_DPOP) the request's method, the full path the
 * client sent (`originalUrl`: Express's `req.originalUrl`, Koa's `ctx.originalUrl`, under any
 * mount), `Host`, `X-Forwarded-Proto`, `DPoP`, the peer and TLS, from which the core rebuilds
 * the URI a proof's `htu` must name. No body is read and no other header is copied.
 */
export function guardInputOf(req: IncomingMessage, originalUrl?: string): AuthenticateInput {
  let authorization: string[] | undefined;
  const headers = new Map<string, string[]>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    // Only four names matter; their lengths sort out every other header without lower-casing it.
    if (name.length !== 13 && name.length !== 4 && name.length !== 17) continue;
    const lower = name.toLowerCase();
    if (lower === 'authorization') (authorization ??= []).push(raw[i + 1]!);
    else if (lower === 'host' || lower === 'dpop' || lower === 'x-forwarded-proto') headers.set(lower, [...(headers.get(lower) ?? []), raw[i + 1]!]);
  }
  return {
    authorization,
    request: {
      method: req.method ?? 'GET',
      path: originalUrl ?? req.url ?? '/',
      headers,
      peerAddress: req.socket.remoteAddress ?? null,
      secure: (req.socket as TLSSocket).encrypted === true,
    },
  };
}
