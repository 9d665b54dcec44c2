import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { SessauthError, type AuthenticateInput, type Sessauth } from '@sessauth/core';
import { readLimitedStream, type SessauthRequest, type SessauthResponse } from '@sessauth/core/adapter';

/** Node's request as the core's plain data. The body is read only if the core asks for it. */
export function toSessauthRequest(req: IncomingMessage): SessauthRequest {
  const headers = new Map<string, string[]>();
  // rawHeaders keeps every value of a repeated header: the core, not Node, refuses duplicates.
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), req.rawHeaders[i + 1]!]);
  }
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  return {
    method: req.method ?? 'GET',
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    query: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers,
    peerAddress: req.socket.remoteAddress ?? null,
    secure: 'encrypted' in req.socket,
    readBody: async (maxBytes) => {
      if (Number(req.headers['content-length']) > maxBytes) throw new SessauthError('payload_too_large');
      const body = await readLimitedStream(Readable.toWeb(req) as ReadableStream<Uint8Array>, maxBytes);
      if (body === null) throw new SessauthError('payload_too_large');
      return body;
    },
  };
}

/** Writes the core's answer; each cookie on its own `Set-Cookie` line. */
export function writeSessauthResponse(res: ServerResponse, response: SessauthResponse): void {
  res.writeHead(response.status, { ...response.headers, 'set-cookie': [...response.setCookies] });
  res.end(response.body ?? undefined);
}

/**
 * The guard's input: every `Authorization` value (two of them fail closed in the core), and the
 * request itself, which the core reads only for DPoP's proof (JWT_DPOP: method, path, headers)
 * and the access-token cookie (JWT_ACCESS_TOKEN_COOKIE).
 */
export function authorizationOf(req: IncomingMessage): AuthenticateInput {
  const values: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === 'authorization') values.push(req.rawHeaders[i + 1]!);
  }
  return { authorization: values.length === 0 ? undefined : values, request: toSessauthRequest(req) };
}

/** Serves the sessauth endpoints; every other request goes to `host` untranslated. */
export function sessauthListener<U>(auth: Sessauth<U>, host: RequestListener): RequestListener {
  return (req, res) => {
    if (!auth.handles(req.url ?? '/')) return void host(req, res);
    auth.handle(toSessauthRequest(req)).then(
      (response) => (response === null ? host(req, res) : writeSessauthResponse(res, response)),
      (error: unknown) => writeSessauthResponse(res, auth.errorResponse(error)),
    );
  };
}
