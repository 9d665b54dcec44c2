import express from 'express';
import { requireAuth, sessauthMiddleware, type AuthenticatedRequest } from '@sessauth/express';
import { toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';
import {
  CLIENT_ASSET_PATH,
  clientAssetResponse,
  createExampleApp,
  createLimitedServer,
  demoPageResponse,
  startupBanner,
  type DemoUser,
} from '@sessauth/example-shared';

const example = await createExampleApp(process.env);
const { config, auth } = example;
const app = express();
app.disable('x-powered-by');

app.use(sessauthMiddleware(auth));

app.get('/me', requireAuth(auth), (req, res) => {
  const { user, session } = (req as AuthenticatedRequest<DemoUser>).auth;
  res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// {"current_password", "new_password"}: the core re-checks the current password under the
// login throttle, stores the new one and ends every session of the user. No body parser:
// the core reads the raw body itself (JSON only, bounded).
app.post('/me/password', requireAuth(auth), async (req, res) => {
  const caller = (req as AuthenticatedRequest<DemoUser>).auth;
  writeSessauthResponse(res, await auth.changePassword(toSessauthRequest(req), caller, example.setPassword));
});

// The demo page and the browser client it imports (no build step for the reader).
app.get('/', (_req, res) => {
  const page = demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport);
  res.status(page.status).set(page.headers).send(page.body);
});
app.get(CLIENT_ASSET_PATH, (_req, res) => {
  const asset = clientAssetResponse();
  res.status(asset.status).set(asset.headers).send(asset.body);
});

// Time limits for slow clients, and a closed connection after every 413 (see http-server-limits.ts).
createLimitedServer(config.http, app).listen(config.port, config.host, () => {
  console.log(startupBanner('express', config));
});
