import express, { type Request, type Response } from 'express';
import type { AuthContext } from '@sessauth/core';
import { requireAuth, sessauthRouter } from '@sessauth/express';
import { serveOnLoopback, type ConformanceUser, type MountApp } from '@sessauth/conformance';

/** The conformance app on Express: the sessauth router, then GET /me behind `requireAuth`. */
export const mountExpress: MountApp = async (auth) => {
  const app = express();
  app.use(sessauthRouter(auth));
  app.get('/me', requireAuth(auth), (req: Request, res: Response) => {
    const { user, session } = req.auth as AuthContext<ConformanceUser>;
    res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
  });
  return serveOnLoopback(app);
};
