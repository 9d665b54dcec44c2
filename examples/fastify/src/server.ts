import Fastify, { type FastifyReply } from 'fastify';
import { SessauthError } from '@sessauth/core';
import { sessauthFastify, sessauthFrameworkErrors } from '@sessauth/fastify';
import { CLIENT_ASSET_PATH, clientAssetResponse, createExampleApp, demoPageHtml, type DemoUser } from '@sessauth/example-shared';

// Types `request.auth.user` as the demo's user everywhere in this app.
declare module '@sessauth/fastify' {
  interface SessauthFastifyTypes {
    user: DemoUser;
  }
}

const example = await createExampleApp(process.env);
const { config, auth } = example;
// frameworkErrors: a URL Fastify's router refuses (bad percent-encoding) under the prefix gets the core's answer.
const app = Fastify({ frameworkErrors: sessauthFrameworkErrors(auth) });
await app.register(sessauthFastify, { auth });

/** Answers the core's JSON error for `error` (a `SessauthError` keeps its code). */
function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const response = auth.errorResponse(error);
  return reply.code(response.status).headers(response.headers).send(response.body);
}

app.get('/me', { preHandler: app.requireAuth }, async (request) => {
  const { user, session } = request.auth;
  return { user: { id: user.id, username: user.username }, session: { id: session.id } };
});

// Changing the password changes the security stamp and ends every session of the user.
// The body goes through Fastify's own JSON parser: the plugin's raw handling stops at its prefix.
app.post('/me/password', { preHandler: app.requireAuth, bodyLimit: 16_384 }, async (request, reply) => {
  try {
    await example.changePassword(request.auth.user, request.body);
    return reply.code(200).send();
  } catch (error) {
    return sendError(reply, error);
  }
});

// The demo page and the browser client it imports (no build step for the reader).
app.get('/', async (_request, reply) =>
  reply.type('text/html; charset=utf-8').send(demoPageHtml(auth.options.prefix, auth.options.refreshTokenTransport)),
);
app.get(CLIENT_ASSET_PATH, async (_request, reply) => {
  const asset = clientAssetResponse();
  return reply.code(asset.status).headers(asset.headers).send(asset.body);
});

await app.listen({ port: config.port, host: config.host });
console.log(`sessauth fastify example on http://${config.host}:${config.port} (store ${config.storeUrl.split(':')[0]})`);
