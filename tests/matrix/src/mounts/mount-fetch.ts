import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createFetchHandler } from '@sessauth/fetch';
import { serveOnLoopback, type MountApp } from '@sessauth/conformance';

/**
 * The conformance app on the Fetch adapter, inside Hono on @hono/node-server (a real
 * socket): the peer address is the socket's, handed over per request.
 */
export const mountFetch: MountApp = async (auth) => {
  const sessauth = createFetchHandler(auth);
  const app = new Hono();
  app.use(async (c, next) => {
    const response = await sessauth.handle(c.req.raw, { remoteAddress: getConnInfo(c).remote.address });
    if (response === undefined) return next();
    return response;
  });
  app.get('/me', async (c) => {
    try {
      const { user, session } = await sessauth.authenticate(c.req.raw);
      return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
    } catch (error) {
      return sessauth.errorResponse(error);
    }
  });
  return serveOnLoopback(getRequestListener(app.fetch));
};
