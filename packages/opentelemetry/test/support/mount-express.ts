import { FRESH_ROUTE_RULE, type MountApp, serveOnLoopback } from '@sessauth/conformance';
import {
  getAuth,
  getOptionalAuth,
  optionalAuth,
  requireAuth,
  requireFresh,
  sendSessauthResponse,
  sessauthMiddleware,
  toSessauthRequest,
} from '@sessauth/express';
import express, { type Request, type Response } from 'express';

/**
 * The conformance app on Express, as the HTTP matrix mounts it (tests/matrix/src/mounts/mount-express.ts):
 * the sessauth router, then the host routes the suite calls behind `requireAuth`, `requireFresh` and `optionalAuth`.
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
    sendSessauthResponse(res, await auth.changePassword(toSessauthRequest(req), getAuth(auth, req), host.setPassword));
  });
  return serveOnLoopback(app);
};
