import { createPasswordAuthenticator, createSessauth } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { type AuthenticatedRequest, requireAuth, sessauthMiddleware } from '@sessauth/express';
import {
  CLIENT_ASSET_PATH,
  clientAssetResponse,
  createLimitedServer,
  demoPageResponse,
  exampleConfigFromEnv,
  geolocationFromEnv,
  startupBanner,
} from '@sessauth/example-shared';
import { toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';
import { PrismaRateLimitStore, PrismaSessionStore } from '@sessauth/prisma';
import express from 'express';
import { openPrisma } from './db.js';
import type { User } from './generated/prisma/client.js';
import { PrismaUsers } from './users.js';

// This example's migrations have no activity table, so the history is not defaulted on here.
const config = exampleConfigFromEnv(process.env, { activityHistory: false });
// One Prisma Client for the app's models and sessauth's: SESSAUTH_STORE=sqlite:<path>.
const prisma = openPrisma(config.storeUrl);
const users = new PrismaUsers(prisma, argon2PasswordHasher);
await users.seed(config.demoUsers?.spec ?? '', config.adminUsers);

const auth = await createSessauth({
  options: config.options,
  // The sessions and the login throttle's counters, in the app's own database.
  store: new PrismaSessionStore(prisma, { provider: 'sqlite' }),
  rateLimitStore: new PrismaRateLimitStore(prisma, { provider: 'sqlite' }),
  users,
  authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
  admin: { isAdmin: (user) => user.isAdmin },
  geolocation: await geolocationFromEnv(process.env),
});

const app = express();
app.disable('x-powered-by');
app.use(sessauthMiddleware(auth));

app.get('/me', requireAuth(auth), (req, res) => {
  const { user, session } = (req as AuthenticatedRequest<User>).auth;
  res.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// {"current_password", "new_password"}: the core re-checks the current password under the login
// throttle, stores the new one (a new security stamp) and ends every session of the user.
app.post('/me/password', requireAuth(auth), async (req, res) => {
  const caller = (req as AuthenticatedRequest<User>).auth;
  writeSessauthResponse(res, await auth.changePassword(toSessauthRequest(req), caller, (user, password) => users.changePassword(user, password)));
});

app.get('/', (_req, res) => {
  const page = demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport);
  res.status(page.status).set(page.headers).send(page.body);
});
app.get(CLIENT_ASSET_PATH, (_req, res) => {
  const asset = clientAssetResponse();
  res.status(asset.status).set(asset.headers).send(asset.body);
});

const server = createLimitedServer(config.http, app).listen(config.port, config.host, () => {
  console.log(startupBanner('prisma (Express, SQLite)', config));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => void prisma.$disconnect().finally(() => process.exit(0))));
}
