import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Sessauth } from '@sessauth/core';
import { toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';

/**
 * Serves the endpoints under `auth.options.prefix` (a middleware, not a Router);
 * every other request goes on to the host's routes. Mount it before any body parser
 * (or after one: a parsed body is re-serialised).
 */
export function sessauthMiddleware<U>(auth: Sessauth<U>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Host routes skip the translation entirely.
    if (!auth.handles(req.url)) return next();
    auth.handle(toSessauthRequest(req, res)).then((response) => {
      if (response === null) next();
      else writeSessauthResponse(res, response);
    }, next);
  };
}
