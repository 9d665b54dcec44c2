import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { createFetchHandler } from '@sessauth/fetch';
import { honoOptionalAuth, honoRequireAuth, honoRequireFresh, honoSessauth } from '@sessauth/fetch/hono';
import { FRESH_ROUTE_RULE, serveOnLoopback, type MountApp } from '@sessauth/conformance';

/**
 * The conformance app on the Fetch adapter, inside Hono on @hono/node-server (a real
 * socket): the peer address is the socket's, handed over per request; the host routes
 * use the typed Hono guards (`c.var.auth`).
 */
export const mountFetch: MountApp = async (auth, host) => {
  const sessauth = createFetchHandler(auth);
  const connOf = (c: Context) => ({ remoteAddress: getConnInfo(c).remote.address });
  const app = new Hono();
  // A mounted test puts the middleware in a sub-app under `basePath`; the host routes stay at the root.
  if (host.mountPath === undefined) app.use(honoSessauth(sessauth, connOf));
  else app.route('/', new Hono().basePath(host.mountPath).use(honoSessauth(sessauth, connOf)));
  app.get('/me', honoRequireAuth(sessauth), (c) => {
    const { user, session } = c.var.auth;
    return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
  });
  app.get('/me/fresh', honoRequireFresh(sessauth, FRESH_ROUTE_RULE), (c) => {
    const { user, session } = c.var.auth;
    return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
  });
  app.get('/me/optional', honoOptionalAuth(sessauth), (c) => {
    const context = c.var.auth;
    return c.json({ user: context === null ? null : { id: context.user.id, username: context.user.username } });
  });
  app.post('/me/password', honoRequireAuth(sessauth), (c) => sessauth.changePassword(c.req.raw, c.var.auth, host.setPassword, connOf(c)));
  return serveOnLoopback(getRequestListener(app.fetch));
};
