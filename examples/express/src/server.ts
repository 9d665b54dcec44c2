import express from 'express';
import { requireAuth, sessauthRouter, type AuthenticatedRequest } from '@sessauth/express';
import { readNodeBody, writeSessauthResponse } from '@sessauth/node-http';
import { CLIENT_ASSET_PATH, clientAssetResponse, createExampleApp, demoPageHtml, parseJsonBytes, type DemoUser } from '@sessauth/example-shared';

const example = await createExampleApp(process.env);
const { config, auth } = example;
const app = express();
app.disable('x-powered-by');

app.use(sessauthRouter(auth));

app.get('/me', requireAuth(auth), (req, res) => {
  const { user, session } = (req as AuthenticatedRequest<DemoUser>).auth;
  res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// Changing the password changes the security stamp and ends every session of the user.
app.post('/me/password', requireAuth(auth), async (req, res) => {
  try {
    await example.changePassword((req as AuthenticatedRequest<DemoUser>).auth.user, parseJsonBytes(await readNodeBody(req, 16_384)));
    res.status(200).end();
  } catch (error) {
    writeSessauthResponse(res, auth.errorResponse(error));
  }
});

// The demo page and the browser client it imports (no build step for the reader).
app.get('/', (_req, res) => {
  res.type('html').send(demoPageHtml(auth.options.prefix, auth.options.refreshTokenTransport));
});
app.get(CLIENT_ASSET_PATH, (_req, res) => {
  const asset = clientAssetResponse();
  res.status(asset.status).set(asset.headers).send(asset.body);
});

app.listen(config.port, config.host, () => {
  console.log(`sessauth express example on http://${config.host}:${config.port} (store ${config.storeUrl.split(':')[0]})`);
});
