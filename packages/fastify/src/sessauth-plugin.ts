import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Sessauth } from '@sessauth/core';
import { toSessauthRequest } from '@sessauth/node-http';
import { guardsOf } from './guards.js';
import type { SessauthUser } from './types.js';
import { sendSessauthResponse } from './write-response.js';

export interface SessauthPluginOptions {
  /** The engine; its `options.prefix` is where the endpoints are served. */
  auth: Sessauth<SessauthUser>;
  /**
   * Serves the endpoints under this path (`/api`: `/api/auth/login/`), as Fastify's own
   * `prefix` does for other plugins; so does registering inside a prefixed plugin.
   * The refresh cookie's Path follows.
   */
  prefix?: string;
}

async function registerSessauth(fastify: FastifyInstance, { auth, prefix }: SessauthPluginOptions): Promise<void> {
  fastify.decorateRequest('auth', null);
  const { requireAuth, optionalAuth } = guardsOf(auth);
  fastify.decorate('requireAuth', requireAuth);
  fastify.decorate('optionalAuth', optionalAuth);
  // The endpoints live in their own encapsulated context: nothing here reaches host routes.
  // fastify-plugin drops the `prefix` register option, so it is applied to that context here.
  await fastify.register(
    async (scope) => {
      // The enclosing plugins' prefixes plus ours: Fastify keeps the full URL, the core needs the mount.
      const mountPath = scope.prefix;
      // Answered in onRequest, before Fastify validates Content-Type or reads a byte of the
      // body: the core's 415 and 413 rules decide, and the stream is still raw for it.
      const serve = async (request: FastifyRequest, reply: FastifyReply) => {
        const mounted = mountPath === '' ? undefined : { originalUrl: request.raw.url ?? '/', mountPath };
        const response = await auth.handle(toSessauthRequest(request.raw, reply.raw, mounted));
        if (response === null) return reply.callNotFound();
        return sendSessauthResponse(reply, response);
      };
      const unreachable = async () => undefined; // onRequest always replies first
      for (const url of [auth.options.prefix, `${auth.options.prefix}/*`, auth.options.adminPrefix, `${auth.options.adminPrefix}/*`]) {
        scope.all(url, { onRequest: serve }, unreachable);
      }
    },
    prefix === undefined ? {} : { prefix },
  );
}

/**
 * Registers the endpoints under `auth.options.prefix` and decorates the host
 * with `requireAuth` (a preHandler) and `request.auth`.
 */
export const sessauthPlugin = fp(registerSessauth, { fastify: '5.x', name: '@sessauth/fastify' });

/**
 * For the host's `frameworkErrors` server option. Fastify refuses a URL with malformed
 * percent-encoding (`/auth/sessions/%ZZ/`) in its router, before any plugin runs; with
 * this the core answers such a URL under its prefix, as it does in every other adapter.
 */
export function sessauthFrameworkErrors(auth: Sessauth<SessauthUser>) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const response = await auth.handle(toSessauthRequest(request.raw));
    return response === null ? reply.send(error) : sendSessauthResponse(reply, response);
  };
}
