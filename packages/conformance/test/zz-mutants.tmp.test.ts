import express, { type Request, type Response, type NextFunction } from 'express';
import { MemorySessionStore, type AuthContext, type SessionStore } from '@sessauth/core';
import { requireAuth, sessauthRouter } from '@sessauth/express';
import { describeAdapterConformance, serveOnLoopback, type ConformanceUser, type MountApp } from '../src/index.js';
import { mountExpress } from './mount-express.js';

const mutant = process.env.MUTANT ?? 'none';

function mount(pre: (req: Request, res: Response, next: NextFunction) => void): MountApp {
  return async (auth) => {
    const app = express();
    app.use(pre);
    app.use(sessauthRouter(auth));
    app.get('/me', requireAuth(auth), (req: Request, res: Response) => {
      const { user, session } = req.auth as AuthContext<ConformanceUser>;
      res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
    });
    return serveOnLoopback(app);
  };
}

const mounts: Record<string, MountApp> = {
  none: mountExpress,
  'drop-pragma': mount((_req, res, next) => { const set = res.setHeader.bind(res); res.setHeader = ((n: string, v: never) => n.toLowerCase() === 'pragma' ? res : set(n, v)) as never; next(); }),
  'first-auth-only': mount((req, _res, next) => {
    let seen = false; const raw: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) { const k = req.rawHeaders[i]!; if (k.toLowerCase() === 'authorization') { if (seen) continue; seen = true; } raw.push(k, req.rawHeaders[i + 1]!); }
    Object.defineProperty(req, 'rawHeaders', { value: raw }); Object.defineProperty(req, 'headersDistinct', { value: { ...req.headersDistinct, ...(req.headersDistinct.authorization ? { authorization: req.headersDistinct.authorization.slice(0, 1) } : {}) } });
    next();
  }),
  'first-cookie-only': mount((_req, res, next) => { const set = res.setHeader.bind(res); res.setHeader = ((n: string, v: never) => set(n, n.toLowerCase() === 'set-cookie' && Array.isArray(v) ? (v as string[]).slice(0, 1) : v)) as never; next(); }),
};

function storeMutant(inner: SessionStore): SessionStore {
  const s = Object.create(inner) as SessionStore;
  if (mutant === 'reuse-no-revoke') s.rotateRefresh = async (input) => {
    const cur = await inner.findSession(input.sessionId);
    if (cur && cur.expiredAt === null && cur.refreshJti !== input.presentedJti) return { status: 'reused' };
    return inner.rotateRefresh(input);
  };
  if (mutant === 'list-revoked') s.listActiveSessions = async (userId, now) => {
    const active = await inner.listActiveSessions(userId, now); return active;
  };
  if (mutant === 'no-cap') s.createSession = (input) => inner.createSession({ ...input, maxActiveSessions: 1000 });
  if (mutant === 'no-purge') s.purgeExpired = async () => 0;
  if (mutant === 'no-expire-all') s.expireAllForUser = async () => 0;
  if (mutant === 'delete-any') s.expireSession = async (id, _userId, now) => { const c = await inner.findSession(id); return c ? inner.expireSession(id, c.userId, now) : false; };
  return s;
}

describeAdapterConformance(`mutant ${mutant}`, {
  mountApp: mounts[mutant] ?? mountExpress,
  makeStore: async () => ({ store: storeMutant(new MemorySessionStore()), close: async () => {} }),
});
