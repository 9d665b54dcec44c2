import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { IntegrationError, type AuthContext, type AuthenticateInput, type FreshnessRule, type Sessauth } from '@sessauth/core';
import { guardInput, writeSessauthResponse } from '@sessauth/node-http';

// Where the guards leave their answer; read back, typed, through getAuth/getOptionalAuth.
const CONTEXT = Symbol('sessauth.auth');
type Guarded = Request & { [CONTEXT]?: AuthContext<unknown> | null };

/** Guards a host route: `getAuth(auth, req)` (or `req.auth`) holds the user and session, or the core's 401 is sent. */
export function requireAuth<U>(auth: Sessauth<U>): RequestHandler {
  return guard(auth, (input) => auth.authenticate(input));
}

/**
 * `requireAuth` for a sensitive route (RFC 9470): also refuses a session whose last sign-in or
 * step-up is older than `rule.maxAgeSeconds` (or did not reach `rule.acr`) with the core's 401
 * `insufficient_user_authentication` and its `WWW-Authenticate` challenge. `getAuth` as usual.
 */
export function requireFresh<U>(auth: Sessauth<U>, rule: FreshnessRule): RequestHandler {
  return guard(auth, async (input) => {
    const context = await auth.authenticate(input);
    auth.assertFresh(context, rule);
    return context;
  });
}

/**
 * For routes that work with or without a user: no `Authorization` header (and, with
 * JWT_ACCESS_TOKEN_COOKIE on, no access-token cookie) goes on with no user (`getOptionalAuth`
 * is null); a bad or expired Bearer token is the core's 401. A cookie that no longer
 * authenticates goes on with no user too; a cookie-authenticated unsafe request without its
 * CSRF token is the core's 403.
 */
export function optionalAuth<U>(auth: Sessauth<U>): RequestHandler {
  return guard(auth, (input) => auth.authenticateOptional(input));
}

/** The context `requireAuth` set, typed by the engine's user type. Throws if the route is not guarded. */
export function getAuth<U>(_auth: Sessauth<U>, req: Request): AuthContext<U> {
  const context = (req as Guarded)[CONTEXT];
  if (context === undefined || context === null) {
    throw new IntegrationError('getAuth: this route is not behind requireAuth(auth)');
  }
  return context as AuthContext<U>;
}

/** The context `optionalAuth` set: null for an anonymous request. Throws if the route has neither guard. */
export function getOptionalAuth<U>(_auth: Sessauth<U>, req: Request): AuthContext<U> | null {
  const context = (req as Guarded)[CONTEXT];
  if (context === undefined) throw new IntegrationError('getOptionalAuth: this route is not behind optionalAuth(auth) or requireAuth(auth)');
  return context as AuthContext<U> | null;
}

function guard<U>(auth: Sessauth<U>, check: (input: AuthenticateInput) => Promise<AuthContext<U> | null>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    check(guardInput(auth, req, req.originalUrl)).then(
      (context) => {
        (req as Guarded)[CONTEXT] = context;
        if (context !== null) req.auth = context;
        next();
      },
      (error: unknown) => writeSessauthResponse(res, auth.errorResponse(error)),
    );
  };
}
