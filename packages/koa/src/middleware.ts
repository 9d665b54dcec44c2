import type { Context, Middleware } from 'koa';
import type { AuthContext, AuthenticateInput, Sessauth } from '@sessauth/core';
import type { SessauthResponse } from '@sessauth/core/adapter';
import { authorizationValues, toSessauthRequest, type NodeRequest } from '@sessauth/node-http';

/** `ctx.state` behind `requireAuth`. */
export interface SessauthState<U> {
  auth: AuthContext<U>;
}

/** `ctx.state` behind `optionalAuth`: null for an anonymous request. */
export interface OptionalSessauthState<U> {
  auth: AuthContext<U> | null;
}

/**
 * Serves the seven endpoints under `auth.options.prefix`; every other request goes on
 * down the stack. Mount it before any body parser (or after one: a parsed body is re-serialised).
 */
export function sessauthMiddleware<U>(auth: Sessauth<U>): Middleware {
  return async (ctx, next) => {
    // Host routes skip the translation entirely.
    if (!auth.handles(ctx.req.url ?? '/')) return next();
    const req: NodeRequest = ctx.req;
    // A body parser mounted earlier consumed the stream and left its result on ctx.request.
    const parsed = (ctx.request as { body?: unknown }).body;
    if (parsed !== undefined && req.body === undefined) req.body = parsed;
    const response = await auth.handle(toSessauthRequest(req));
    if (response === null) return next();
    respond(ctx, response);
  };
}

/** Guards host routes: `ctx.state.auth` holds the user and session, or the core's 401 is answered. */
export function requireAuth<U>(auth: Sessauth<U>): Middleware<SessauthState<U>> {
  return guard(auth, (input) => auth.authenticate(input));
}

/**
 * For routes that work with or without a user: no `Authorization` header goes on with
 * `ctx.state.auth` null; a bad or expired token is the core's 401.
 */
export function optionalAuth<U>(auth: Sessauth<U>): Middleware<OptionalSessauthState<U>> {
  return guard(auth, (input) => auth.authenticateOptional(input));
}

function guard<U, C extends AuthContext<U> | null>(auth: Sessauth<U>, check: (input: AuthenticateInput) => Promise<C>): Middleware<{ auth: C }> {
  return async (ctx, next) => {
    let context: C;
    try {
      context = await check({ authorization: authorizationValues(ctx.req) });
    } catch (error) {
      respond(ctx, auth.errorResponse(error));
      return;
    }
    ctx.state.auth = context;
    await next();
  };
}

function respond(ctx: Context, response: SessauthResponse): void {
  ctx.set(response.headers);
  if (response.setCookies.length > 0) ctx.set('set-cookie', [...response.setCookies]);
  // Body before status: Koa turns a null body into 204, and the explicit status
  // afterwards restores the contract's 200 with an empty body.
  ctx.body = response.body;
  ctx.status = response.status;
}
