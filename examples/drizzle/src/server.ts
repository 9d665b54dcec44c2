import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createPasswordAuthenticator, createSessauth } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { DrizzleRateLimitStore, DrizzleSessionStore } from '@sessauth/drizzle';
import {
  type AssetResponse,
  CLIENT_ASSET_PATH,
  clientAssetResponse,
  demoPageResponse,
  exampleConfigFromEnv,
  geolocationFromEnv,
  nodeServerOptions,
  startupBanner,
} from '@sessauth/example-shared';
import { createFetchHandler } from '@sessauth/fetch';
import { honoRequireAuth, honoSessauth } from '@sessauth/fetch/hono';
import { type Context, Hono } from 'hono';
import { openDatabase } from './db/open-database.js';
import { DrizzleUsers } from './users.js';

// This example's migrations have no activity table, so the history is not defaulted on here.
const config = exampleConfigFromEnv(process.env, { activityHistory: false });
// One drizzle database for the app's tables and sessauth's: SESSAUTH_STORE=sqlite:<path>.
const { db, close } = openDatabase(config.storeUrl);
const users = new DrizzleUsers(db, argon2PasswordHasher);
await users.seed(config.demoUsers?.spec ?? '', config.adminUsers);

const auth = await createSessauth({
  options: config.options,
  // The sessions and the login throttle's counters, in the app's own database.
  store: new DrizzleSessionStore(db),
  rateLimitStore: new DrizzleRateLimitStore(db),
  users,
  authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
  admin: { isAdmin: (user) => user.isAdmin },
  geolocation: await geolocationFromEnv(process.env),
});

const sessauth = createFetchHandler(auth);
const app = new Hono();
/** The peer address is the socket's. */
const connOf = (c: Context) => ({ remoteAddress: getConnInfo(c).remote.address });

// The seven endpoints; every other request goes on to the routes below.
app.use(honoSessauth(sessauth, connOf));
const requireAuth = honoRequireAuth(sessauth);

app.get('/me', requireAuth, (c) => {
  const { user, session } = c.var.auth;
  return c.json({ user: { id: user.id, username: user.username }, session: { id: session.id } });
});

// {"current_password", "new_password"}: the core re-checks the current password under the login
// throttle, stores the new one (a new security stamp) and ends every session of the user.
app.post('/me/password', requireAuth, (c) =>
  sessauth.changePassword(c.req.raw, c.var.auth, (user, password) => users.changePassword(user, password), connOf(c)),
);

const asResponse = (asset: AssetResponse): Response => new Response(asset.body, { status: asset.status, headers: asset.headers });
app.get('/', () => asResponse(demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport)));
app.get(CLIENT_ASSET_PATH, () => asResponse(clientAssetResponse()));

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: nodeServerOptions(config.http) }, () => {
  console.log(startupBanner('drizzle (Hono, SQLite)', config));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => (close(), process.exit(0))));
}
