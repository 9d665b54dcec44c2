import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthContext, Sessauth } from '@sessauth/core';
import { authorizationValues, toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';

/**
 * Serves the seven endpoints under `auth.options.prefix`; every other request goes on
 * to the host's routes. Mount it before any body parser (or after one: a parsed
 * body is re-serialised).
 */
export function sessauthRouter<U>(auth: Sessauth<U>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    auth.handle(toSessauthRequest(req)).then((response) => {
      if (response === null) next();
      else writeSessauthResponse(res, response);
    }, next);
  };
}

/** Guards a host route: `req.auth` holds the user and session, or the core's 401 is sent. */
export function requireAuth<U>(auth: Sessauth<U>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    auth.authenticate({ authorization: authorizationValues(req) }).then(
      (context) => {
        (req as Request & { auth: AuthContext<U> }).auth = context;
        next();
      },
      (error: unknown) => writeSessauthResponse(res, auth.errorResponse(error)),
    );
  };
}
