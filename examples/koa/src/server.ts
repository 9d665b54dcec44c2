import Koa, { type Middleware, type ParameterizedContext } from 'koa';
import { requireAuth, sessauthMiddleware, type SessauthState } from '@sessauth/koa';
import { toSessauthRequest } from '@sessauth/node-http';
import type { SessauthResponse } from '@sessauth/core/adapter';
import {
  CLIENT_ASSET_PATH,
  clientAssetResponse,
  createExampleApp,
  createLimitedServer,
  demoPageResponse,
  startupBanner,
  type AssetResponse,
  type DemoUser,
} from '@sessauth/example-shared';

type AuthedContext = ParameterizedContext<SessauthState<DemoUser>>;

const example = await createExampleApp(process.env);
const { config, auth } = example;
const app = new Koa();
const guard = requireAuth(auth);

/** One method + path behind the guard. Koa has no router built in; with any router it is `router.get(path, guard, handler)`. */
function guarded(method: string, path: string, handler: (ctx: AuthedContext) => Promise<void>): Middleware {
  return (ctx, next) => (ctx.method === method && ctx.path === path ? guard(ctx, () => handler(ctx)) : next());
}

/** Answers a core response (or a static asset). Body before status: Koa turns a null body into 204. */
function respond(ctx: ParameterizedContext, response: SessauthResponse | AssetResponse): void {
  ctx.set(response.headers);
  if ('setCookies' in response && response.setCookies.length > 0) ctx.set('set-cookie', [...response.setCookies]);
  ctx.body = response.body;
  ctx.status = response.status;
}

app.use(sessauthMiddleware(auth));

app.use(
  guarded('GET', '/me', async (ctx) => {
    const { user, session } = ctx.state.auth;
    ctx.body = { user: { id: user.id, username: user.username }, session: { id: session.id } };
  }),
);

// {"current_password", "new_password"}: the core re-checks the current password under the
// login throttle, stores the new one and ends every session of the user. No body parser:
// the core reads the raw body itself (JSON only, bounded).
app.use(
  guarded('POST', '/me/password', async (ctx) => {
    respond(ctx, await auth.changePassword(toSessauthRequest(ctx.req), ctx.state.auth, example.setPassword));
  }),
);

// The demo page and the browser client it imports (no build step for the reader).
app.use(async (ctx, next) => {
  if (ctx.method !== 'GET' || ctx.path !== '/') return next();
  respond(ctx, demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport));
});
app.use(async (ctx, next) => {
  if (ctx.method !== 'GET' || ctx.path !== CLIENT_ASSET_PATH) return next();
  respond(ctx, clientAssetResponse());
});

// Time limits for slow clients, and a closed connection after every 413 (see http-server-limits.ts).
createLimitedServer(config.http, app.callback()).listen(config.port, config.host, () => {
  console.log(startupBanner('koa', config));
});
