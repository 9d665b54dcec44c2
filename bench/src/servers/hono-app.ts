import type { Server } from 'node:http';
import { serve, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler } from '@sessauth/fetch';
import { REFUSED, ROUTE, type Target } from './target.js';

/** Hono on @hono/node-server (the Fetch adapter's Node home) with the target on `GET /me`. */
export function listenHono(target: Target): Promise<Server> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  if (target.kind === 'bare') {
    app.get(ROUTE, (c) => c.json({ ok: true }));
  } else if (target.kind === 'verify') {
    const { verify } = target;
    app.get(ROUTE, async (c) => {
      const identity = await verify(c.req.header('authorization'));
      return identity === null ? c.json(REFUSED, 401) : c.json(identity);
    });
  } else {
    const handler = createFetchHandler(target.auth);
    app.use('*', async (c, next) => {
      const response = await handler.handle(c.req.raw, { remoteAddress: c.env.incoming.socket.remoteAddress });
      if (response !== null) return response;
      await next();
      return undefined;
    });
    app.get(ROUTE, async (c) => {
      try {
        const { user, session } = await handler.authenticate(c.req.raw);
        return c.json({ user: user.id, session: session.id });
      } catch (error) {
        return handler.errorResponse(error);
      }
    });
  }
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server));
  });
}
