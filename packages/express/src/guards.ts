import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { IntegrationError, type AuthContext, type Sessauth } from '@sessauth/core';
import { authorizationValues, writeSessauthResponse } from '@sessauth/node-http';

// Where the guards leave their answer; read back, typed, through getAuth/getOptionalAuth.
const CONTEXT = Symbol('sessauth.auth');
type Guarded = Request & { [CONTEXT]?: AuthContext<unknown> | null };

/** Guards a host route: `getAuth(auth, req)` (or `req.auth`) holds the user and session, or the core's 401 is sent. */
export function requireAuth<U>(auth: Sessauth<U>): RequestHandler {
  return guard(auth, false);
}

/**
 * For routes that work with or without a user: no `Authorization` header goes on with
 * no user (`getOptionalAuth` is null); a bad or expired token is the core's 401.
 */
export function optionalAuth<U>(auth: Sessauth<U>): RequestHandler {
  return guard(auth, true);
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

function guard<U>(auth: Sessauth<U>, optional: boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const input = { authorization: authorizationValues(req) };
    (optional ? auth.authenticateOptional(input) : auth.authenticate(input)).then(
      (context) => {
        (req as Guarded)[CONTEXT] = context;
        if (context !== null) req.auth = context;
        next();
      },
      (error: unknown) => writeSessauthResponse(res, auth.errorResponse(error)),
    );
  };
}
