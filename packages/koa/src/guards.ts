import type { Context, Middleware } from 'koa';
import { IntegrationError, type AuthContext, type AuthenticateInput, type FreshnessRule, type Sessauth } from '@sessauth/core';
import { guardInput } from '@sessauth/node-http';
import { sendSessauthResponse } from './write-response.js';

/** `ctx.state` behind `requireAuth`. */
export interface SessauthState<U> {
  auth: AuthContext<U>;
}

/** `ctx.state` behind `optionalAuth`: null for an anonymous request. */
export interface OptionalSessauthState<U> {
  auth: AuthContext<U> | null;
}

/** Guards host routes: `ctx.state.auth` (or `getAuth(auth, ctx)`) holds the user and session, or the core's 401 is answered. */
export function requireAuth<U>(auth: Sessauth<U>): Middleware<SessauthState<U>> {
  return guard(auth, (input) => auth.authenticate(input));
}

/**
 * `requireAuth` for a sensitive route (RFC 9470): also refuses a session whose last sign-in or
 * step-up is older than `rule.maxAgeSeconds` (or did not reach `rule.acr`) with the core's 401
 * `insufficient_user_authentication` and its `WWW-Authenticate` challenge.
 */
export function requireFresh<U>(auth: Sessauth<U>, rule: FreshnessRule): Middleware<SessauthState<U>> {
  return guard(auth, async (input) => {
    const context = await auth.authenticate(input);
    auth.assertFresh(context, rule);
    return context;
  });
}

/**
 * For routes that work with or without a user: no `Authorization` header (and, with
 * JWT_ACCESS_TOKEN_COOKIE on, no access-token cookie) goes on with `ctx.state.auth` null; a bad
 * or expired Bearer token is the core's 401. A cookie that no longer authenticates goes on with
 * null too; a cookie-authenticated unsafe request without its CSRF token is the core's 403.
 */
export function optionalAuth<U>(auth: Sessauth<U>): Middleware<OptionalSessauthState<U>> {
  return guard(auth, (input) => auth.authenticateOptional(input));
}

/** `ctx.state.auth` behind `requireAuth`, typed by the engine's user type; throws on a route that is not guarded. */
export function getAuth<U>(_auth: Sessauth<U>, ctx: Pick<Context, 'state'>): AuthContext<U> {
  const context = (ctx.state as { auth?: AuthContext<U> | null }).auth;
  if (context === undefined || context === null) throw new IntegrationError('getAuth: this route is not behind requireAuth(auth)');
  return context;
}

function guard<U, C extends AuthContext<U> | null>(auth: Sessauth<U>, check: (input: AuthenticateInput) => Promise<C>): Middleware<{ auth: C }> {
  return async (ctx, next) => {
    let context: C;
    try {
      context = await check(guardInput(auth, ctx.req, ctx.originalUrl));
    } catch (error) {
      sendSessauthResponse(ctx, auth.errorResponse(error));
      return;
    }
    ctx.state.auth = context;
    await next();
  };
}
