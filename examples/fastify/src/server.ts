import Fastify, { type FastifyReply } from 'fastify';
import type { SessauthResponse } from '@sessauth/core/adapter';
import { getAuth, sessauthPlugin, sessauthFrameworkErrors } from '@sessauth/fastify';
import { toSessauthRequest } from '@sessauth/node-http';
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

// Types `request.auth.user` as the demo's user everywhere in this app.
declare module '@sessauth/fastify' {
  interface SessauthFastifyTypes {
    user: DemoUser;
  }
}

const example = await createExampleApp(process.env);
const { config, auth } = example;
const app = Fastify({
  // frameworkErrors: a URL Fastify's router refuses (bad percent-encoding) under the prefix gets the core's answer.
  frameworkErrors: sessauthFrameworkErrors(auth),
  // Time limits for slow clients, and a closed connection after every 413 (see http-server-limits.ts).
  serverFactory: (handler) => createLimitedServer(config.http, handler),
});
await app.register(sessauthPlugin, { auth });

/** Sends a core response (or a static asset) as it is. */
function send(reply: FastifyReply, response: SessauthResponse | AssetResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  if ('setCookies' in response && response.setCookies.length > 0) reply.header('set-cookie', [...response.setCookies]);
  return reply.send(response.body ?? undefined);
}

app.get('/me', { preHandler: app.requireAuth }, async (request) => {
  const { user, session } = getAuth(request);
  return { user: { id: user.id, username: user.username }, session: { id: session.id } };
});

// {"current_password", "new_password"}: the core re-checks the current password under the
// login throttle, stores the new one and ends every session of the user. In its own scope
// no content-type parser reads the body: the core reads it raw (JSON only, bounded), so
// its 415 and 413 answers are the same as on the auth endpoints.
await app.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  scope.post('/me/password', { preHandler: app.requireAuth }, async (request, reply) =>
    send(reply, await auth.changePassword(toSessauthRequest(request.raw), getAuth(request), example.setPassword)),
  );
});

// The demo page and the browser client it imports (no build step for the reader).
app.get('/', async (_request, reply) => send(reply, demoPageResponse(auth.options.prefix, auth.options.refreshTokenTransport)));
app.get(CLIENT_ASSET_PATH, async (_request, reply) => send(reply, clientAssetResponse()));

await app.listen({ port: config.port, host: config.host });
console.log(startupBanner('fastify', config));
