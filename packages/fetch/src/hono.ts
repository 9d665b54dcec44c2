import type { MiddlewareHandler } from 'hono';
import { IntegrationError, type AuthContext, type FreshnessRule } from '@sessauth/core';
import type { ConnInfo, FetchHandler, WaitUntil } from './fetch-handler.js';

/** The Hono variables the guards set: `c.var.auth`. */
export interface SessauthVariables<U> {
  auth: AuthContext<U>;
}

/** `c.var.auth` behind `honoOptionalAuth`: null for an anonymous request. */
export interface OptionalSessauthVariables<U> {
  auth: AuthContext<U> | null;
}

/** Where the direct peer comes from in this runtime (for example `getConnInfo(c)` on Node). */
export type ConnOf = (context: Parameters<MiddlewareHandler>[0]) => ConnInfo | undefined;

/**
 * Serves the endpoints under the prefix; every other request goes on to the host's routes.
 * Under `basePath('/api')`, `app.route('/api', ...)` or `use('/api/*', ...)` it serves under
 * that path (the part of the route before a parameter or wildcard), and the refresh cookie's Path follows.
 */
export function honoSessauth<U>(handler: FetchHandler<U>, connOf?: ConnOf): MiddlewareHandler {
  return async (c, next) => {
    const response = await handler.handle(c.req.raw, connOf?.(c), executionCtxOf(c), literalBase(c.req.routePath) || undefined);
    if (response !== null) return response;
    return next();
  };
}

/** Guards a route: `c.var.auth` (typed by the handler's user type), or the core's 401. */
export function honoRequireAuth<U>(handler: FetchHandler<U>): MiddlewareHandler<{ Variables: SessauthVariables<U> }> {
  return async (c, next) => {
    let context: AuthContext<U>;
    try {
      context = await handler.authenticate(c.req.raw, executionCtxOf(c));
    } catch (error) {
      return handler.errorResponse(error);
    }
    c.set('auth', context);
    return next();
  };
}

/**
 * `honoRequireAuth` for a sensitive route (RFC 9470): also refuses a session whose last sign-in
 * or step-up is older than `rule.maxAgeSeconds` (or did not reach `rule.acr`) with the core's
 * 401 `insufficient_user_authentication` and its `WWW-Authenticate` challenge.
 */
export function honoRequireFresh<U>(handler: FetchHandler<U>, rule: FreshnessRule): MiddlewareHandler<{ Variables: SessauthVariables<U> }> {
  return async (c, next) => {
    let context: AuthContext<U>;
    try {
      context = await handler.requireFresh(c.req.raw, rule, executionCtxOf(c));
    } catch (error) {
      return handler.errorResponse(error);
    }
    c.set('auth', context);
    return next();
  };
}

/** For routes that work with or without a user: `c.var.auth` is null without an `Authorization` header. */
export function honoOptionalAuth<U>(handler: FetchHandler<U>): MiddlewareHandler<{ Variables: OptionalSessauthVariables<U> }> {
  return async (c, next) => {
    let context: AuthContext<U> | null;
    try {
      context = await handler.authenticateOptional(c.req.raw, executionCtxOf(c));
    } catch (error) {
      return handler.errorResponse(error);
    }
    c.set('auth', context);
    return next();
  };
}

/** `c.var.auth` behind `honoRequireAuth`, typed by the handler's user type; throws on a route that is not guarded. */
export function getAuth<U>(_handler: FetchHandler<U>, c: { get(key: 'auth'): unknown }): AuthContext<U> {
  const context = c.get('auth') as AuthContext<U> | null | undefined;
  if (context === undefined || context === null) throw new IntegrationError('getAuth: this route is not behind honoRequireAuth(handler)');
  return context;
}

/** `/api/*` → `/api`: the segments of the matched route before its first parameter or wildcard. */
function literalBase(routePath: string): string {
  const variable = routePath.search(/\/[^/]*[:*{]/);
  return variable === -1 ? routePath : routePath.slice(0, variable);
}

/** Hono's `c.executionCtx` on Workers; its getter throws where the runtime has none (Node, Bun, Deno). */
function executionCtxOf(c: Parameters<MiddlewareHandler>[0]): WaitUntil | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
