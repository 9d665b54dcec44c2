import express, { type Request, type Response } from 'express';
import { getAuth, getOptionalAuth, optionalAuth, requireAuth, requireFresh, sessauthMiddleware } from '@sessauth/express';
import { toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';
import { FRESH_ROUTE_RULE, serveOnLoopback, type MountApp } from '@sessauth/conformance';

/**
 * The conformance app on Express: the sessauth router (under `app.use(host.mountPath, ...)`
 * when the test mounts it), then GET /me and POST /me/password behind `requireAuth`.
 */
export const mountExpress: MountApp = async (auth, host) => {
  const app = express();
  if (host.mountPath === undefined) app.use(sessauthMiddleware(auth));
  else app.use(host.mountPath, sessauthMiddleware(auth));
  app.get('/me', requireAuth(auth), (req: Request, res: Response) => {
    const { user, session } = getAuth(auth, req);
    res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
  });
  app.get('/me/fresh', requireFresh(auth, FRESH_ROUTE_RULE), (req: Request, res: Response) => {
    const { user, session } = getAuth(auth, req);
    res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
  });
  app.get('/me/optional', optionalAuth(auth), (req: Request, res: Response) => {
    const context = getOptionalAuth(auth, req);
    res.json({ user: context === null ? null : { id: context.user.id, username: context.user.username } });
  });
  app.post('/me/password', requireAuth(auth), async (req: Request, res: Response) => {
    writeSessauthResponse(res, await auth.changePassword(toSessauthRequest(req), getAuth(auth, req), host.setPassword));
  });
  return serveOnLoopback(app);
};
