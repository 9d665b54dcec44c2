import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterTestEngine, makeDpopKey, serveOnLoopback, signProof, type AppUnderTest } from '@sessauth/conformance';
import { sessauthMiddleware as expressSessauth } from '@sessauth/express';
import { sessauthPlugin } from '@sessauth/fastify';
import { createFetchHandler } from '@sessauth/fetch';
import { honoSessauth } from '@sessauth/fetch/hono';
import { sessauthMiddleware as koaSessauth } from '@sessauth/koa';

type Engine = Awaited<ReturnType<typeof createAdapterTestEngine>>;

// The other ways each framework mounts a middleware (mount/cookie-flow covers one per adapter):
// each serves the endpoints where the framework put them, and the refresh cookie's Path follows.
const VARIANTS: Record<string, { at: string; start: (auth: Engine) => Promise<AppUnderTest> }> = {
  'Express app.use("/auth", ...) (the mount is the prefix)': {
    at: '/auth',
    start: async (auth) => serveOnLoopback(express().use('/auth', expressSessauth(auth))),
  },
  'Express Router under /v1 under /api': {
    at: '/api/v1/auth',
    start: async (auth) => {
      const api = express.Router().use('/v1', express.Router().use(expressSessauth(auth)));
      return serveOnLoopback(express().use('/api', api));
    },
  },
  'Koa nested koa-mount /api then /v1': {
    at: '/api/v1/auth',
    start: async (auth) => serveOnLoopback(new Koa().use(mount('/api', mount('/v1', koaSessauth(auth)))).callback()),
  },
  'Fastify registered inside a plugin with prefix /api': {
    at: '/api/auth',
    start: async (auth) => {
      const app = Fastify({ forceCloseConnections: true });
      await app.register(async (api) => api.register(sessauthPlugin, { auth }), { prefix: '/api' });
      const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
      return { baseUrl, close: () => app.close() };
    },
  },
  'Hono app.route("/api", sub)': {
    at: '/api/auth',
    start: async (auth) => {
      const sub = new Hono().use(honoSessauth(createFetchHandler(auth)));
      return serveOnLoopback(getRequestListener(new Hono().route('/api', sub).fetch));
    },
  },
  'Hono use("/api/*", ...)': {
    at: '/api/auth',
    start: async (auth) => serveOnLoopback(getRequestListener(new Hono().use('/api/*', honoSessauth(createFetchHandler(auth))).fetch)),
  },
};

describe('mounting under a path, framework by framework', () => {
  let running: AppUnderTest | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  for (const [name, variant] of Object.entries(VARIANTS)) {
    it(`${name}: login and refresh at ${variant.at}/, refresh cookie on Path ${variant.at}/refresh/`, async () => {
      const auth = await createAdapterTestEngine({ refreshTokenTransport: 'cookie' });
      running = await variant.start(auth);
      const csrf = await fetch(`${running.baseUrl}${variant.at}/csrf/`);
      expect(csrf.status).toBe(200);
      const { csrf_token: token } = (await csrf.json()) as { csrf_token: string };
      const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
      const post = (path: string, cookie: string) =>
        fetch(`${running!.baseUrl}${variant.at}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrftoken': token, cookie },
          body: path === '/login/' ? JSON.stringify({ username: 'alice', password: 'pw' }) : '{}',
        });
      const login = await post('/login/', csrfCookie);
      expect(login.status, await login.clone().text()).toBe(200);
      const refreshLine = login.headers.getSetCookie().find((line) => line.startsWith(`${auth.options.refreshCookieName}=`))!;
      expect(refreshLine).toContain(`Path=${variant.at}/refresh/;`);
      const refreshed = await post('/refresh/', `${csrfCookie}; ${refreshLine.split(';')[0]}`);
      expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    });

    it(`${name}: a DPoP proof naming ${variant.at}/login/ binds the login; one naming the path without the mount is refused`, async () => {
      const auth = await createAdapterTestEngine({ dpop: 'allowed' });
      running = await variant.start(auth);
      const key = await makeDpopKey('ES256');
      const login = async (path: string) =>
        fetch(`${running!.baseUrl}${variant.at}/login/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            dpop: await signProof(key, { htm: 'POST', htu: `${running!.baseUrl}${path}`, iat: Math.floor(Date.now() / 1000) }),
          },
          body: JSON.stringify({ username: 'alice', password: 'pw' }),
        });
      const bound = await login(`${variant.at}/login/`);
      expect(bound.status, await bound.clone().text()).toBe(200);
      expect(((await bound.json()) as { token_type?: string }).token_type).toBe('DPoP');
      if (variant.at !== '/auth') expect((await login('/auth/login/')).status).toBe(401);
    });
  }
});
