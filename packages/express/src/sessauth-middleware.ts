import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Sessauth } from '@sessauth/core';
import { mountedAt, toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';

/**
 * Serves the endpoints under `auth.options.prefix` (a middleware, not a Router);
 * every other request goes on to the host's routes. Mount it before any body parser
 * (or after one: a parsed body is re-serialised). Mounted under a path
 * (`app.use('/api', ...)`, a Router, Nest's `forRoutes`), it serves under that path
 * and the refresh cookie's Path follows.
 */
export function sessauthMiddleware<U>(auth: Sessauth<U>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const mounted = mountedAt(req.originalUrl, req.url);
    // Host routes skip the translation entirely.
    if (!(mounted === undefined ? auth.handles(req.url) : auth.handles(mounted.originalUrl, mounted.mountPath))) return next();
    auth.handle(toSessauthRequest(req, res, mounted)).then((response) => {
      if (response === null) next();
      else writeSessauthResponse(res, response);
    }, next);
  };
}
