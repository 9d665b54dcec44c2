import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createExampleApp, type ExampleApp } from '@sessauth/example-shared';
import { createNestApp } from '@sessauth/example-nestjs';

const SPA = 'http://spa.test';
const PASSWORD = 'alice-password-1';

/** One Set-Cookie line as RFC 6265 reads it: name, value and the attributes this test checks. */
function parseSetCookie(line: string): { name: string; value: string; path: string | undefined; maxAge: string | undefined } {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  const attribute = (name: string) => attributes.find((a) => a.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
  return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), path: attribute('path'), maxAge: attribute('max-age') };
}

// The documented Nest app (examples/nestjs, docs/nestjs.md) over a real socket: SessauthModule.forRoot
// with the global guard, CORS from NestFactory.create, @Public(), @Fresh() and the parameter decorators.
describe('NestJS: SessauthModule.forRoot({ auth, globalGuard: true }) on platform-express', () => {
  let example: ExampleApp;
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    example = await createExampleApp({
      SESSAUTH_STORE: 'memory:',
      SESSAUTH_DEMO_USERS: `alice:${PASSWORD}`,
      JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
      JWT_SECRET_KEY: 'nest-test-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      NODE_ENV: 'test',
    });
    app = await createNestApp(example.auth, { corsOrigins: [SPA] });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await example?.close();
  });

  it('logs in, calls a guarded Nest route, refreshes by cookie and logs out', async () => {
    const csrf = await fetch(`${base}/auth/csrf/`);
    expect(csrf.status).toBe(200);
    const { csrf_token: csrfToken } = (await csrf.json()) as { csrf_token: string };
    const csrfCookie = parseSetCookie(csrf.headers.getSetCookie()[0] ?? '');
    expect(csrfCookie.path).toBe('/');
    const cookies = new Map([[csrfCookie.name, csrfCookie.value]]);
    const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrftoken': csrfToken, cookie: cookieHeader(), origin: base, ...headers },
        body: JSON.stringify(body),
      });

    const login = await post('/auth/login/', { username: 'alice', password: PASSWORD });
    expect(login.status, await login.clone().text()).toBe(200);
    const loggedIn = (await login.json()) as { access_token: string; refresh_token?: string };
    expect(loggedIn.refresh_token).toBeUndefined();
    const refreshCookie = login.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === example.auth.options.refreshCookieName);
    expect(refreshCookie?.path).toBe('/auth/refresh/');
    cookies.set(refreshCookie!.name, refreshCookie!.value);

    const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${loggedIn.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { username: 'alice' }, session: { id: expect.any(String) } });
    // A route under @Fresh(600), right after the sign-in.
    const security = await fetch(`${base}/me/security`, { headers: { authorization: `Bearer ${loggedIn.access_token}` } });
    expect(security.status).toBe(200);
    expect(await security.json()).toMatchObject({ recentSignIn: true });
    // A Nest route with a JSON body: express.json() runs after sessauth, for the host's routes.
    const note = await post('/me/notes', { text: 'hello' }, { authorization: `Bearer ${loggedIn.access_token}` });
    expect(note.status).toBe(201);
    expect(await note.json()).toEqual({ by: 'alice', text: 'hello' });

    // The global guard's refusal is the core's answer: status, JSON code and headers; @Public() is let through.
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    const anonymous = await fetch(`${base}/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await anonymous.json()) as { error_code?: string }).error_code).toBe('invalid_token');

    const refreshed = await post('/auth/refresh/', {});
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const { access_token: access } = (await refreshed.json()) as { access_token: string };
    const rotated = refreshed.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === refreshCookie!.name);
    expect(rotated?.path).toBe('/auth/refresh/');
    expect(rotated?.value).not.toBe(refreshCookie!.value);
    cookies.set(rotated!.name, rotated!.value);

    const logout = await post('/auth/logout/', {}, { authorization: `Bearer ${access}` });
    expect(logout.status).toBe(200);
    const cleared = logout.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === refreshCookie!.name);
    expect(cleared).toMatchObject({ path: '/auth/refresh/', maxAge: '0' });
    expect((await fetch(`${base}/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    const replay = await post('/auth/refresh/', {});
    expect(replay.status).toBe(401);
  });

  it("answers a malformed login body with the core's code, not Nest's body-parser error", async () => {
    const csrf = await fetch(`${base}/auth/csrf/`);
    const { csrf_token: token } = (await csrf.json()) as { csrf_token: string };
    const cookie = (csrf.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const answer = await fetch(`${base}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': token, cookie, origin: base },
      body: '{"username":',
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error_code?: string }).error_code).toBe('invalid_request');
  });

  it('answers a CORS preflight of the login from NestFactory.create({ cors }), before sessauth', async () => {
    const preflight = await fetch(`${base}/auth/login/`, {
      method: 'OPTIONS',
      headers: { origin: SPA, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-csrftoken' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const foreign = await fetch(`${base}/auth/csrf/`, { headers: { origin: 'http://evil.test' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe("NestJS with app.setGlobalPrefix('api')", () => {
  it('serves the endpoints under the global prefix too, with the refresh cookie on Path /api/auth/refresh/', async () => {
    const example = await createExampleApp({
      SESSAUTH_STORE: 'memory:',
      SESSAUTH_DEMO_USERS: `alice:${PASSWORD}`,
      JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
      JWT_SECRET_KEY: 'nest-test-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      NODE_ENV: 'test',
    });
    const app = await createNestApp(example.auth, { corsOrigins: [] });
    app.setGlobalPrefix('api');
    try {
      await app.listen(0, '127.0.0.1');
      const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      const csrf = await fetch(`${base}/api/auth/csrf/`);
      expect(csrf.status).toBe(200);
      const { csrf_token: token } = (await csrf.json()) as { csrf_token: string };
      const login = await fetch(`${base}/api/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrftoken': token, cookie: csrf.headers.getSetCookie()[0]!.split(';')[0]! },
        body: JSON.stringify({ username: 'alice', password: PASSWORD }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const refresh = login.headers
        .getSetCookie()
        .map(parseSetCookie)
        .find((c) => c.name === example.auth.options.refreshCookieName);
      expect(refresh?.path).toBe('/api/auth/refresh/');
      const { access_token: access } = (await login.json()) as { access_token: string };
      expect((await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
    } finally {
      await app.close();
      await example.close();
    }
  });
});

describe('docs/nestjs.md', () => {
  it('shows every file of examples/nestjs/src verbatim (the recipe is the tested app)', () => {
    const root = new URL('../../../', import.meta.url);
    const page = readFileSync(new URL('docs/nestjs.md', root), 'utf8');
    const sources = readdirSync(new URL('examples/nestjs/src/', root)).filter((name) => name !== 'index.ts');
    expect(sources.length).toBeGreaterThan(4);
    for (const name of sources) {
      const source = readFileSync(new URL(`examples/nestjs/src/${name}`, root), 'utf8');
      expect(page, name).toContain(`## \`${name}\`\n`);
      expect(page, name).toContain(`\`\`\`ts\n${source}\`\`\``);
    }
  });
});
