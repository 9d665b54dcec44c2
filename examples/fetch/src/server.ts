import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { createFetchHandler } from '@sessauth/fetch';
import { honoRequireAuth, honoSessauth } from '@sessauth/fetch/hono';
import {
  CLIENT_ASSET_PATH,
  clientAssetResponse,
  createExampleApp,
  demoPageResponse,
  nodeServerOptions,
  startupBanner,
  type AssetResponse,
} from '@sessauth/example-shared';

const example = await createExampleApp(process.env);
const { config, auth } = example;
const sessauth = createFetchHandler(auth);
const app = new Hono();
/** The peer address is the socket's (Node: getConnInfo, or c.env.incoming.socket). */
const connOf = (c: Context) => ({ remoteAddress: getConnInfo(c).remote.address });

// the endpoints; every other request goes on to the routes below.
app.use(honoSessauth(sessauth, connOf));
// The guard: `c.var.auth` is typed with DemoUser, or the core's 401 is answered.
const requireAuth = honoRequireAuth(sessauth);

app.get('/me', requireAuth, (c) => {
  const { user, session } = c.var.auth;
  return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// {"current_password", "new_password"}: the core re-checks the current password under the
// login throttle, stores the new one and ends every session of the user. The core reads
// the raw body itself (JSON only, bounded).
app.post('/me/password', requireAuth, (c) => sessauth.changePassword(c.req.raw, c.var.auth, example.setPassword, connOf(c)));

// The demo page and the browser client it imports (no build step for the reader).
const asResponse = (asset: AssetResponse): Response => new Response(asset.body, { status: asset.status, headers: asset.headers });
app.get('/', () => asResponse(demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport)));
app.get(CLIENT_ASSET_PATH, () => asResponse(clientAssetResponse()));

// Time limits for slow clients, and a closed connection after every 413 (see http-server-limits.ts).
serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: nodeServerOptions(config.http) }, () => {
  console.log(startupBanner('fetch (Hono)', config));
});
