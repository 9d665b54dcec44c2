import Koa from 'koa';
import mount from 'koa-mount';
import { optionalAuth, requireAuth, requireFresh, sessauthMiddleware } from '@sessauth/koa';
import { toSessauthRequest } from '@sessauth/node-http';
import { FRESH_ROUTE_RULE, serveOnLoopback, type ConformanceUser, type MountApp } from '@sessauth/conformance';

/**
 * The conformance app on Koa: the sessauth middleware (under koa-mount when the test mounts it),
 * then GET /me and POST /me/password behind `requireAuth` (no router).
 */
export const mountKoa: MountApp = async (auth, host) => {
  const app = new Koa();
  const guard = requireAuth<ConformanceUser>(auth);
  const maybe = optionalAuth<ConformanceUser>(auth);
  const fresh = requireFresh<ConformanceUser>(auth, FRESH_ROUTE_RULE);
  app.use(host.mountPath === undefined ? sessauthMiddleware(auth) : mount(host.mountPath, sessauthMiddleware(auth)));
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/me') {
      return guard(ctx, async () => {
        const { user, session } = ctx.state.auth;
        ctx.body = { user: { id: user.id, username: user.username }, session: { id: session.id } };
      });
    }
    if (ctx.method === 'GET' && ctx.path === '/me/fresh') {
      return fresh(ctx, async () => {
        const { user, session } = ctx.state.auth;
        ctx.body = { user: { id: user.id, username: user.username }, session: { id: session.id } };
      });
    }
    if (ctx.method === 'GET' && ctx.path === '/me/optional') {
      return maybe(ctx, async () => {
        const context = ctx.state.auth;
        ctx.body = { user: context === null ? null : { id: context.user.id, username: context.user.username } };
      });
    }
    if (ctx.method === 'POST' && ctx.path === '/me/password') {
      return guard(ctx, async () => {
        const response = await auth.changePassword(toSessauthRequest(ctx.req), ctx.state.auth, host.setPassword);
        ctx.set(response.headers);
        ctx.body = response.body;
        ctx.status = response.status;
      });
    }
    return next();
  });
  return serveOnLoopback(app.callback());
};
