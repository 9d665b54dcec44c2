import { createServer, type Server } from 'node:http';
import Koa, { type Middleware } from 'koa';
import { requireAuth, sessauthMiddleware, type SessauthState } from '@sessauth/koa';
import type { BenchUser } from '../bench-auth.js';
import { REFUSED, ROUTE, type Target } from './target.js';

/** Koa with the target on `GET /me`; routed by hand (no router package, the same for every variant). */
export function listenKoa(target: Target): Promise<Server> {
  const app = new Koa();
  const onRoute =
    (handler: Middleware): Middleware =>
    async (ctx, next) => {
      if (ctx.method === 'GET' && ctx.path === ROUTE) await handler(ctx, next);
      else await next();
    };
  if (target.kind === 'bare') {
    app.use(onRoute(async (ctx) => void (ctx.body = { ok: true })));
  } else if (target.kind === 'verify') {
    const { verify } = target;
    app.use(
      onRoute(async (ctx) => {
        const identity = await verify(ctx.get('authorization') || undefined);
        if (identity === null) {
          ctx.status = 401;
          ctx.body = REFUSED;
        } else {
          ctx.body = identity;
        }
      }),
    );
  } else {
    const { auth } = target;
    const guard = requireAuth(auth);
    app.use(sessauthMiddleware(auth));
    app.use(
      onRoute(async (ctx, next) =>
        guard(ctx as Parameters<typeof guard>[0], async () => {
          const { user, session } = (ctx.state as SessauthState<BenchUser>).auth;
          ctx.body = { user: user.id, session: session.id };
          await next();
        }),
      ),
    );
  }
  return new Promise((resolve) => {
    const server = createServer(app.callback()).listen(0, '127.0.0.1', () => resolve(server));
  });
}
