import Koa from 'koa';
import { requireAuth, sessauthMiddleware } from '@sessauth/koa';
import { serveOnLoopback, type ConformanceUser, type MountApp } from '@sessauth/conformance';

/** The conformance app on Koa: the sessauth middleware, then GET /me behind `requireAuth` (no router). */
export const mountKoa: MountApp = async (auth) => {
  const app = new Koa();
  const guard = requireAuth<ConformanceUser>(auth);
  app.use(sessauthMiddleware(auth));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/me') return next();
    await guard(ctx, async () => {
      const { user, session } = ctx.state.auth;
      ctx.body = { user: { id: user.id, username: user.username }, session: { id: session.id } };
    });
  });
  return serveOnLoopback(app.callback());
};
