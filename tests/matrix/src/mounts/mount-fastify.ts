import Fastify from 'fastify';
import type { AuthContext } from '@sessauth/core';
import { getAuth, requireFresh, sessauthPlugin, sessauthFrameworkErrors } from '@sessauth/fastify';
import { toSessauthRequest } from '@sessauth/node-http';
import { FRESH_ROUTE_RULE, type AppUnderTest, type ConformanceUser, type MountApp } from '@sessauth/conformance';

/**
 * The conformance app on Fastify: the plugin (and its `frameworkErrors` hook, so that URLs
 * Fastify's router refuses still get the core's answer; with the `prefix` option when the test
 * mounts it), then GET /me and POST /me/password
 * behind `requireAuth`. The password route keeps its body raw for the core's 415 and 413 rules.
 */
export const mountFastify: MountApp = async (auth, host) => {
  const app = Fastify({ forceCloseConnections: true, frameworkErrors: sessauthFrameworkErrors(auth) });
  if (host.mountPath === undefined) await app.register(sessauthPlugin, { auth });
  else await app.register(sessauthPlugin, { auth, prefix: host.mountPath });
  app.get('/me', { preHandler: app.requireAuth }, async (request) => {
    const { user, session } = getAuth(request) as AuthContext<ConformanceUser>;
    return { user: { id: user.id, username: user.username }, session: { id: session.id } };
  });
  app.get('/me/fresh', { preHandler: requireFresh(auth, FRESH_ROUTE_RULE) }, async (request) => {
    const { user, session } = getAuth(request) as AuthContext<ConformanceUser>;
    return { user: { id: user.id, username: user.username }, session: { id: session.id } };
  });
  app.get('/me/optional', { preHandler: app.optionalAuth }, async (request) => {
    const context = request.auth as AuthContext<ConformanceUser> | null;
    return { user: context === null ? null : { id: context.user.id, username: context.user.username } };
  });
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.post('/me/password', { preHandler: app.requireAuth }, async (request, reply) => {
      const caller = getAuth(request) as AuthContext<ConformanceUser>;
      const response = await auth.changePassword(toSessauthRequest(request.raw), caller, host.setPassword);
      return reply
        .code(response.status)
        .headers(response.headers)
        .send(response.body ?? undefined);
    });
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl, close: () => app.close() } satisfies AppUnderTest;
};
