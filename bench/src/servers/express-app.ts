import type { Server } from 'node:http';
import express, { type Request } from 'express';
import { requireAuth, sessauthMiddleware, type AuthenticatedRequest } from '@sessauth/express';
import type { BenchUser } from '../bench-auth.js';
import { REFUSED, ROUTE, type Target } from './target.js';

/** Express 5 with the target on `GET /me`. */
export function listenExpress(target: Target): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  if (target.kind === 'bare') {
    app.get(ROUTE, (_req, res) => void res.json({ ok: true }));
  } else if (target.kind === 'verify') {
    const { verify } = target;
    app.get(ROUTE, (req: Request, res) => {
      verify(req.headers.authorization).then(
        (identity) => {
          if (identity === null) res.status(401).json(REFUSED);
          else res.json(identity);
        },
        () => res.status(500).end(),
      );
    });
  } else {
    const { auth } = target;
    app.use(sessauthMiddleware(auth));
    app.get(ROUTE, requireAuth(auth), (req, res) => {
      const { user, session } = (req as AuthenticatedRequest<BenchUser>).auth;
      res.json({ user: user.id, session: session.id });
    });
  }
  return listen(app);
}

export function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}
