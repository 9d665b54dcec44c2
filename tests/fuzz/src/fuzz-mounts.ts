import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AuthContext, Sessauth } from '@sessauth/core';
import { requireAuth, sessauthMiddleware as expressMiddleware } from '@sessauth/express';
import { sessauthPlugin, sessauthFrameworkErrors } from '@sessauth/fastify';
import { createFetchHandler } from '@sessauth/fetch';
import { requireAuth as koaRequireAuth, sessauthMiddleware } from '@sessauth/koa';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import type { FuzzUser } from './fuzz-engine.js';

/** A fuzzed app listening on 127.0.0.1. */
export interface MountedApp {
  readonly port: number;
  /** Errors the framework itself reported (Koa's `error` event), by name and code. */
  readonly frameworkErrors?: ReadonlyArray<{ readonly name: string; readonly code: string | undefined; readonly message: string }>;
  close(): Promise<void>;
}

/**
 * Mounts the engine the way the conformance matrix does (tests/matrix/src/mounts): the
 * adapter's endpoints, then `GET /me` behind its guard. Nothing else: what is fuzzed is
 * the adapter's translation and the core behind it.
 */
export type MountFuzzApp = (auth: Sessauth<FuzzUser>) => Promise<MountedApp>;

async function listen(listener: RequestListener): Promise<MountedApp> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

const meBody = (user: FuzzUser, sessionId: string) => ({ user: { id: user.id, username: user.username }, session: { id: sessionId } });

export const mountExpress: MountFuzzApp = (auth) => {
  const app = express();
  app.use(expressMiddleware(auth));
  app.get('/me', requireAuth(auth), (req, res) => {
    const { user, session } = (req as typeof req & { auth: { user: FuzzUser; session: { id: string } } }).auth;
    res.json(meBody(user, session.id));
  });
  return listen(app);
};

export const mountFastify: MountFuzzApp = async (auth) => {
  const app = Fastify({ forceCloseConnections: true, frameworkErrors: sessauthFrameworkErrors(auth) });
  await app.register(sessauthPlugin, { auth });
  app.get('/me', { preHandler: app.requireAuth }, async (request) => {
    const { user, session } = request.auth as AuthContext<FuzzUser>;
    return meBody(user, session.id);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
};

export const mountKoa: MountFuzzApp = async (auth) => {
  const app = new Koa();
  // Koa prints every error it is told about unless the host listens: record them instead.
  const frameworkErrors: Array<{ name: string; code: string | undefined; message: string }> = [];
  app.on('error', (error: Error & { code?: string }) => frameworkErrors.push({ name: error.name, code: error.code, message: error.message }));
  const guard = koaRequireAuth<FuzzUser>(auth);
  app.use(sessauthMiddleware(auth));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/me') return next();
    await guard(ctx, async () => {
      ctx.body = meBody(ctx.state.auth.user, ctx.state.auth.session.id);
    });
  });
  return { ...(await listen(app.callback())), frameworkErrors };
};

export const mountFetch: MountFuzzApp = (auth) => {
  const sessauth = createFetchHandler(auth);
  const app = new Hono();
  app.use(async (c, next) => (await sessauth.handle(c.req.raw, { remoteAddress: getConnInfo(c).remote.address })) ?? next());
  app.get('/me', async (c) => {
    try {
      const { user, session } = await sessauth.authenticate(c.req.raw);
      return c.json(meBody(user, session.id));
    } catch (error) {
      return sessauth.errorResponse(error);
    }
  });
  return listen(getRequestListener(app.fetch));
};
