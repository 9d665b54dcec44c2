import Fastify from 'fastify';
import type { AuthContext } from '@sessauth/core';
import { sessauthFastify, sessauthFrameworkErrors } from '@sessauth/fastify';
import type { AppUnderTest, ConformanceUser, MountApp } from '@sessauth/conformance';

/**
 * The conformance app on Fastify: the plugin (and its `frameworkErrors` hook, so that URLs
 * Fastify's router refuses still get the core's answer), then GET /me behind `requireAuth`.
 */
export const mountFastify: MountApp = async (auth) => {
  const app = Fastify({ forceCloseConnections: true, frameworkErrors: sessauthFrameworkErrors(auth) });
  await app.register(sessauthFastify, { auth });
  app.get('/me', { preHandler: app.requireAuth }, async (request) => {
    const { user, session } = request.auth as AuthContext<ConformanceUser>;
    return { user: { id: user.id, username: user.username }, session: { id: session.id } };
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl, close: () => app.close() } satisfies AppUnderTest;
};
