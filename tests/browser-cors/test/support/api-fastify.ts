import fastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import { sessauthPlugin } from '@sessauth/fastify';
import { ALLOWED_HEADERS, listenRecorded, type CorsApi, type CorsApiInput } from './cors-api.js';

/** The README's Fastify recipe: `@fastify/cors` with credentials, registered before the plugin. */
export async function fastifyApi({ auth, spaOrigin }: CorsApiInput): Promise<CorsApi> {
  const app = Fastify();
  await app.register(fastifyCors, { origin: spaOrigin, credentials: true, allowedHeaders: ALLOWED_HEADERS });
  await app.register(sessauthPlugin, { auth });
  const api = await listenRecorded(app.server, async (port) => {
    await app.listen({ port, host: '127.0.0.1' });
  });
  return { ...api, close: () => app.close() };
}
