import Koa, { type Middleware, type ParameterizedContext } from 'koa';
import { SessauthError } from '@sessauth/core';
import { requireAuth, sessauthMiddleware, type SessauthState } from '@sessauth/koa';
import { readNodeBody } from '@sessauth/node-http';
import { CLIENT_ASSET_PATH, clientAssetResponse, createExampleApp, demoPageHtml, parseJsonBytes, type DemoUser } from '@sessauth/example-shared';

type AuthedContext = ParameterizedContext<SessauthState<DemoUser>>;

const example = await createExampleApp(process.env);
const { config, auth } = example;
const app = new Koa();
const guard = requireAuth(auth);

/** One method + path behind the guard. Koa has no router built in; with any router it is `router.get(path, guard, handler)`. */
function guarded(method: string, path: string, handler: (ctx: AuthedContext) => Promise<void>): Middleware {
  return (ctx, next) => (ctx.method === method && ctx.path === path ? guard(ctx, () => handler(ctx)) : next());
}

/** Answers the core's JSON error for `error` (a `SessauthError` keeps its code). */
function respondError(ctx: AuthedContext, error: unknown): void {
  const response = auth.errorResponse(error);
  ctx.set(response.headers);
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

// Changing the password changes the security stamp and ends every session of the user.
app.use(
  guarded('POST', '/me/password', async (ctx) => {
    try {
      await example.changePassword(ctx.state.auth.user, parseJsonBytes(await readNodeBody(ctx.req, 16_384)));
      ctx.body = '';
      ctx.remove('content-type');
    } catch (error) {
      respondError(ctx, error);
    }
  }),
);

// The demo page and the browser client it imports (no build step for the reader).
app.use(async (ctx, next) => {
  if (ctx.method !== 'GET' || ctx.path !== '/') return next();
  ctx.type = 'html';
  ctx.body = demoPageHtml(auth.options.prefix, auth.options.refreshTokenTransport);
});
app.use(async (ctx, next) => {
  if (ctx.method !== 'GET' || ctx.path !== CLIENT_ASSET_PATH) return next();
  const asset = clientAssetResponse();
  ctx.status = asset.status;
  ctx.set(asset.headers);
  ctx.body = asset.body;
});

app.listen(config.port, config.host, () => {
  console.log(`sessauth koa example on http://${config.host}:${config.port} (store ${config.storeUrl.split(':')[0]})`);
});
