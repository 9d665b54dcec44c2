import type { Middleware } from 'koa';
import type { Sessauth } from '@sessauth/core';
import { mountedAt, toSessauthRequest, type NodeRequest } from '@sessauth/node-http';
import { sendSessauthResponse } from './write-response.js';

/**
 * Serves the endpoints under `auth.options.prefix`; every other request goes on
 * down the stack. Mount it before any body parser (or after one: a parsed body is re-serialised).
 * Under koa-mount it serves under the mount path, and the refresh cookie's Path follows.
 */
export function sessauthMiddleware<U>(auth: Sessauth<U>): Middleware {
  return async (ctx, next) => {
    const mounted = mountedAt(ctx.originalUrl, ctx.url);
    // Host routes skip the translation entirely.
    if (!(mounted === undefined ? auth.handles(ctx.req.url ?? '/') : auth.handles(mounted.originalUrl, mounted.mountPath))) return next();
    const req: NodeRequest = ctx.req;
    // A body parser mounted earlier consumed the stream and left its result on ctx.request.
    const parsed = (ctx.request as { body?: unknown }).body;
    if (parsed !== undefined && req.body === undefined) req.body = parsed;
    const response = await auth.handle(toSessauthRequest(req, ctx.res, mounted));
    if (response === null) return next();
    sendSessauthResponse(ctx, response);
  };
}
