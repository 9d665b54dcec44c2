import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { SessauthError } from '@sessauth/core';
import type { SessauthRequest } from '@sessauth/core/adapter';
import { headersFromRawList } from './headers-from-raw-list.js';
import type { MountedAt } from './mounted-at.js';
import { warnParsedBodyOnce } from './parsed-body-warning.js';

/** A Node request, possibly carrying a body a framework already parsed. */
export type NodeRequest = IncomingMessage & { body?: unknown };

/**
 * Translates a Node request without touching its body until the core asks for it
 * (the 415 gate runs first). Headers come from `rawHeaders`, so duplicates survive
 * for the core to refuse instead of Node silently keeping the first. Given the response,
 * the request's `signal` aborts when the client goes away before the answer is written
 * (made on first use: only a login's password check asks for it). Given `mounted`, the core
 * sees the full path and the mount (see `mountedAt`).
 */
export function toSessauthRequest(req: NodeRequest, res?: ServerResponse, mounted?: MountedAt): SessauthRequest {
  const url = mounted?.originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  const request: SessauthRequest = {
    method: req.method ?? 'GET',
    path: query === -1 ? url : url.slice(0, query),
    query: query === -1 ? '' : url.slice(query + 1),
    ...(mounted === undefined || mounted.mountPath === '' ? {} : { mountPath: mounted.mountPath }),
    headers: headersFromRawList(req.rawHeaders),
    peerAddress: req.socket.remoteAddress ?? null,
    secure: (req.socket as TLSSocket).encrypted === true,
    readBody: (maxBytes) => readNodeBody(req, maxBytes),
  };
  if (res === undefined) return request;
  let signal: AbortSignal | undefined;
  return Object.defineProperty(request, 'signal', {
    enumerable: true,
    get: () => (signal ??= clientGoneSignal(res)),
  });
}

/** Aborts when the response's connection closes before the response was finished: the client left. */
function clientGoneSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}

/** The raw body, at most `maxBytes`; re-serialised when a body parser already consumed the stream. */
export async function readNodeBody(req: NodeRequest, maxBytes: number): Promise<Uint8Array> {
  if (req.readableEnded || req.body !== undefined) {
    // A raw Buffer or string keeps its bytes; a parsed object or a drained stream does not.
    if (!(req.body instanceof Uint8Array) && typeof req.body !== 'string') warnParsedBodyOnce();
    return preParsedBody(req.body);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new SessauthError('payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      // Stop reading; the socket is closed after the 413 is written.
      req.unpipe();
      throw new SessauthError('payload_too_large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function preParsedBody(body: unknown): Uint8Array {
  if (body === undefined || body === null) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  return new TextEncoder().encode(JSON.stringify(body));
}
