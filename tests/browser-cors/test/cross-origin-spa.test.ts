import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@sessauth/browser-support';
import { createExampleApp, type ExampleApp } from '@sessauth/example-shared';
import { expressApi } from './support/api-express.js';
import { fastifyApi } from './support/api-fastify.js';
import { honoApi } from './support/api-hono.js';
import { koaApi } from './support/api-koa.js';
import type { CorsApi, CorsApiInput } from './support/cors-api.js';
import { serveSpa, type SpaCall, type SpaServer } from './support/spa-page.js';

declare global {
  interface Window {
    spaFlow(api: string, username: string, password: string): Promise<{ calls: SpaCall[]; sessions: { is_current: boolean }[] }>;
  }
}

const FRAMEWORKS: readonly [string, (input: CorsApiInput) => Promise<CorsApi>][] = [
  ['express + cors', expressApi],
  ['koa + @koa/cors', koaApi],
  ['fastify + @fastify/cors', fastifyApi],
  ['hono + hono/cors', honoApi],
];

let browser: Browser | null = null;
let spa: SpaServer;
let example: ExampleApp;
// Two ports of localhost: cross-origin (the port differs) but same-site (the site is
// http://localhost), so SameSite=Lax cookies ride along; localhost is a secure context
// in Chromium, so Secure cookies are kept over plain http.
let spaOrigin: string;

beforeAll(async () => {
  browser = await launchChromium();
  if (browser === null) return;
  spa = await serveSpa();
  spaOrigin = `http://localhost:${spa.port}`;
  example = await createExampleApp({
    SESSAUTH_STORE: 'memory:',
    SESSAUTH_DEMO_USERS: 'alice:alice-password',
    JWT_SECRET_KEY: 'a-browser-cors-test-secret-of-32-bytes!',
    JWT_ISSUER: 'https://api.test',
    JWT_AUDIENCE: 'spa',
    JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
    JWT_CSRF_TRUSTED_ORIGINS: spaOrigin,
    JWT_LOGIN_THROTTLE_RATE: '100/min',
  });
});
afterAll(async () => {
  await browser?.close();
  await spa?.close();
  await example?.close();
});

describe.each(FRAMEWORKS)('an SPA on another origin, %s', (_, startApi) => {
  let api: CorsApi;
  beforeAll(async () => {
    if (browser !== null) api = await startApi({ auth: example.auth, spaOrigin });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('runs csrf, login, refresh, sessions and logout with credentials: all 200, each POST after its preflight', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    const loginCookies: Promise<string>[] = [];
    context.on('response', (response) => {
      if (response.url().endsWith('/auth/login/')) loginCookies.push(response.headerValue('set-cookie').then((value) => value ?? ''));
    });
    const page = await context.newPage();
    await page.goto(`${spaOrigin}/`);
    const apiBase = `http://localhost:${api.port}/auth`;

    const { calls, sessions } = await page.evaluate(([base]) => window.spaFlow(base!, 'alice', 'alice-password'), [apiBase]);

    expect(calls.map((call) => `${call.step} ${call.status}`)).toEqual(['csrf 200', 'login 200', 'refresh 200', 'sessions 200', 'logout 200']);
    expect(calls[2]?.accessToken).toMatch(/^eyJ/);
    expect(sessions.filter((session) => session.is_current)).toHaveLength(1);
    // The refresh cookie was set cross-origin as the recipe says: Secure, HttpOnly, SameSite=Lax.
    const setCookie = (await Promise.all(loginCookies)).join('\n');
    expect(setCookie).toMatch(/refresh_token=[^;]+;.*Secure/i);
    expect(setCookie).toMatch(/refresh_token=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/refresh_token=[^;]+;.*SameSite=Lax/i);

    // The preflights (JSON and X-CSRFToken or Authorization make every call but the first one
    // preflighted) were answered by the CORS layer, before the adapter, with credentials allowed.
    const seen = api.seen.filter((request) => request.path.startsWith('/auth/'));
    const preflights = seen.filter((request) => request.method === 'OPTIONS');
    expect(preflights.map((request) => request.path).sort()).toEqual(['/auth/login/', '/auth/logout/', '/auth/refresh/', '/auth/sessions/']);
    for (const request of seen) {
      expect(request).toMatchObject({ allowOrigin: spaOrigin, allowCredentials: 'true' });
      expect(request.status).toBe(request.method === 'OPTIONS' ? 204 : 200);
    }
    await context.close();
  });

  it('refuses a page on an origin the CORS layer does not list', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    const page = await context.newPage();
    // 127.0.0.1 is another site than localhost: neither allowed by CORS nor trusted for CSRF.
    await page.goto(`http://127.0.0.1:${spa.port}/`);
    const outcome = await page.evaluate(async (base) => {
      try {
        await fetch(`${base}/csrf/`, { credentials: 'include' });
        return 'read';
      } catch (error) {
        return (error as Error).name;
      }
    }, `http://localhost:${api.port}/auth`);
    expect(outcome).toBe('TypeError');
    await context.close();
  });
});
