import type { Server } from 'node:http';
import Fastify from 'fastify';
import { getAuth, sessauthPlugin } from '@sessauth/fastify';
import type { BenchUser } from '../bench-auth.js';
import { REFUSED, ROUTE, type Target } from './target.js';

/** Fastify 5 with the target on `GET /me` (logger off, as in production benchmarks). */
export async function listenFastify(target: Target): Promise<Server> {
  const app = Fastify({ logger: false });
  if (target.kind === 'bare') {
    app.get(ROUTE, async () => ({ ok: true }));
  } else if (target.kind === 'verify') {
    const { verify } = target;
    app.get(ROUTE, async (request, reply) => {
      const identity = await verify(request.headers.authorization);
      return identity === null ? reply.code(401).send(REFUSED) : identity;
    });
  } else {
    await app.register(sessauthPlugin, { auth: target.auth });
    app.get(ROUTE, { preHandler: app.requireAuth }, async (request) => {
      const { user, session } = getAuth(request);
      return { user: (user as BenchUser).id, session: session.id };
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
}
