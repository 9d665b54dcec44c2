import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { SessauthError, type AuthContext } from '@sessauth/core';
import { createFetchHandler } from '@sessauth/fetch';
import { CLIENT_ASSET_PATH, clientAssetResponse, createExampleApp, demoPageHtml, type DemoUser } from '@sessauth/example-shared';

type Env = { Variables: { auth: AuthContext<DemoUser> } };

const example = await createExampleApp(process.env);
const { config, auth } = example;
const sessauth = createFetchHandler(auth);
const app = new Hono<Env>();

// The seven endpoints; the peer address is the socket's (Node: getConnInfo, or c.env.incoming.socket).
app.use(async (c, next) => {
  const response = await sessauth.handle(c.req.raw, { remoteAddress: getConnInfo(c).remote.address });
  if (response !== undefined) return response;
  await next();
});

const requireAuth = createMiddleware<Env>(async (c, next) => {
  try {
    c.set('auth', await sessauth.authenticate(c.req.raw));
  } catch (error) {
    return sessauth.errorResponse(error);
  }
  await next();
});

app.get('/me', requireAuth, (c) => {
  const { user, session } = c.get('auth');
  return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// Changing the password changes the security stamp and ends every session of the user.
const passwordBodyLimit = bodyLimit({
  maxSize: 16_384,
  onError: () => sessauth.errorResponse(new SessauthError('payload_too_large')),
});
app.post('/me/password', requireAuth, passwordBodyLimit, async (c) => {
  try {
    const body: unknown = await c.req.json().catch(() => {
      throw new SessauthError('invalid_request');
    });
    await example.changePassword(c.get('auth').user, body);
    return c.body(null, 200);
  } catch (error) {
    return sessauth.errorResponse(error);
  }
});

// The demo page and the browser client it imports (no build step for the reader).
app.get('/', (c) => c.html(demoPageHtml(auth.options.prefix, auth.options.refreshTokenTransport)));
app.get(CLIENT_ASSET_PATH, () => {
  const asset = clientAssetResponse();
  return new Response(asset.body, { status: asset.status, headers: asset.headers });
});

serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => {
  console.log(`sessauth fetch (Hono) example on http://${config.host}:${config.port} (store ${config.storeUrl.split(':')[0]})`);
});
