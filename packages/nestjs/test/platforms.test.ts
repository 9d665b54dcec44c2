import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createAdapterTestEngine } from '@sessauth/conformance';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { CurrentUser, SESSAUTH, SessauthModule } from '../src/index.js';

const SPA = 'http://spa.test';

@Controller('me')
class MeController {
  @Get()
  me(@CurrentUser() user: { username: string }) {
    return { username: user.username };
  }
}

describe.each(['express', 'fastify'] as const)('SessauthModule with CORS from NestFactory.create on Nest %s', (platform) => {
  it("answers the login's preflight from Nest's CORS layer and lets the browser read the login's answer", async () => {
    const auth = await createAdapterTestEngine();
    @Module({ imports: [SessauthModule.forRoot({ auth, globalGuard: true })], controllers: [MeController] })
    class AppModule {}
    const cors = { origin: [SPA], credentials: true };
    const app =
      platform === 'express'
        ? await NestFactory.create(AppModule, new ExpressAdapter(express()), { cors, bodyParser: false, logger: false })
        : await NestFactory.create(AppModule, new FastifyAdapter(), { cors, logger: false });
    try {
      await app.listen(0, '127.0.0.1');
      const base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
      const preflight = await fetch(`${base}/auth/login/`, {
        method: 'OPTIONS',
        headers: { origin: SPA, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(SPA);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');

      const login = await fetch(`${base}/auth/login/`, {
        method: 'POST',
        headers: { origin: SPA, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'pw' }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      expect(login.headers.get('access-control-allow-origin')).toBe(SPA);
      const { access_token: access } = (await login.json()) as { access_token: string };
      const me = await fetch(`${base}/me`, { headers: { origin: SPA, authorization: `Bearer ${access}` } });
      expect(await me.json()).toEqual({ username: 'alice' });
      // A refusal of the guard carries the CORS headers too, so the browser can read the 401.
      const refused = await fetch(`${base}/me`, { headers: { origin: SPA } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe(SPA);
      // Another origin gets no CORS grant.
      expect((await fetch(`${base}/auth/csrf/`, { headers: { origin: 'http://evil.test' } })).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });
});

describe('SessauthModule in a standalone application context (no HTTP server)', () => {
  it('starts, serves nothing and hands out the engine (a CLI or a worker of the same app)', async () => {
    const auth = await createAdapterTestEngine();
    const context = await NestFactory.createApplicationContext(SessauthModule.forRoot({ auth }), { logger: false });
    try {
      expect(context.get(SESSAUTH)).toBe(auth);
    } finally {
      await context.close();
    }
  });
});
