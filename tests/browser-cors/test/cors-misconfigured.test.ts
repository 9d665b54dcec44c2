import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import cors from 'cors';
import express, { type Express } from 'express';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@sessauth/browser-support';
import { createExampleApp, type ExampleApp } from '@sessauth/example-shared';
import { sessauthMiddleware } from '@sessauth/express';
import { ALLOWED_HEADERS } from './support/cors-api.js';

// Issue 27, point 5: the browser client reading its own CORS failure. Two APIs whose CORS is
// wrong the way users get it wrong, and an SPA on another origin running @sessauth/client.

declare global {
  interface Window {
    sessauthCall(
      api: string,
      call: 'login' | 'restore',
    ): Promise<{ outcome: string; code: string | null; message: string; status: string; signedOut: string[] }>;
  }
}

// The built file (the tests run under the source condition, which would name src/index.ts).
const CLIENT_JS = readFileSync(
  new URL('dist/sessauth-client.min.js', pathToFileURL(createRequire(import.meta.url).resolve('@sessauth/client/package.json'))),
  'utf8',
);

/** The SPA: the client's one-file build, and `window.sessauthCall` to drive it and record its events. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>spa</title></head><body>
<script type="module">
  import { createSessauthClient } from '/client.js';
  window.sessauthCall = async (api, call) => {
    const client = createSessauthClient({ baseUrl: api });
    const signedOut = [];
    client.on('signed-out', (event) => signedOut.push(event.reason));
    let outcome = 'resolved', code = null, message = '';
    try {
      if (call === 'login') await client.login({ username: 'alice', password: 'alice-password' });
      else outcome = 'resolved ' + (await client.restore());
    } catch (error) {
      outcome = 'rejected';
      code = error.code ?? null;
      message = String(error.message);
    }
    // Let a broadcast from another tab land before reading.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { outcome, code, message, status: client.status, signedOut };
  };
  window.ready = true;
</script></body></html>`;

interface Listening {
  readonly origin: string;
  /** Every request the server received, `METHOD path`. */
  readonly seen: string[];
  close(): Promise<void>;
}

function listen(
  handler: Express | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void),
): Promise<Listening> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://localhost:${(server.address() as AddressInfo).port}`,
        seen,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    ),
  );
}

let browser: Browser | null = null;
let example: ExampleApp;
let spa: Listening;
let corsAfter: Listening;
let noPreflight: Listening;
let postOnly: Listening;
/** Set: the next `POST /auth/refresh/` of `postOnly` is processed, but the page cannot read its answer. */
let dropNextRefreshAnswer = false;

beforeAll(async () => {
  browser = await launchChromium();
  if (browser === null) return;
  spa = await listen((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(CLIENT_JS);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  example = await createExampleApp({
    SESSAUTH_STORE: 'memory:',
    SESSAUTH_DEMO_USERS: 'alice:alice-password',
    JWT_SECRET_KEY: 'a-browser-cors-test-secret-of-32-bytes!',
    JWT_ISSUER: 'https://api.test',
    JWT_AUDIENCE: 'spa',
    JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
    JWT_CSRF_TRUSTED_ORIGINS: spa.origin,
    JWT_LOGIN_THROTTLE_RATE: '100/min',
  });
  // The issue's set-up: the CORS layer after the adapter, so no sessauth answer carries CORS headers.
  const after = express();
  after.use(sessauthMiddleware(example.auth));
  after.use(cors({ origin: spa.origin, credentials: true, allowedHeaders: ALLOWED_HEADERS }));
  corsAfter = await listen(after);
  // CORS headers on every answer, but nothing answers the preflight (OPTIONS falls through to a 404).
  const headersOnly = express();
  headersOnly.use((_req, res, next) => {
    res.setHeader('access-control-allow-origin', spa.origin);
    res.setHeader('access-control-allow-credentials', 'true');
    next();
  });
  headersOnly.use(sessauthMiddleware(example.auth));
  noPreflight = await listen(headersOnly);
  // A CORS layer that allows POST only (all the client's preflighted calls are POSTs), and, as
  // Spring's CorsProcessor does, refuses a preflight for any other method (the `cors` package
  // answers every preflight alike). Simple requests get their CORS headers whatever the method.
  const onlyPost = express();
  onlyPost.use((req, res, next) => {
    if (req.headers.origin !== spa.origin) return next();
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      if (req.headers['access-control-request-method'] !== 'POST') return void res.status(403).end();
      res.setHeader('access-control-allow-origin', spa.origin);
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('access-control-allow-methods', 'POST');
      res.setHeader('access-control-allow-headers', ALLOWED_HEADERS.join(', '));
      // Not cached: each preflighted request asks for itself (else Chromium's cache of the refresh's
      // preflight would stand for the probe's).
      res.setHeader('access-control-max-age', '0');
      return void res.status(204).end();
    }
    res.setHeader('access-control-allow-origin', spa.origin);
    res.setHeader('access-control-allow-credentials', 'true');
    next();
  });
  onlyPost.use((req, res, next) => {
    if (req.method === 'POST' && req.path === '/auth/refresh/' && dropNextRefreshAnswer) {
      dropNextRefreshAnswer = false;
      // The session row has rotated by the time the answer is written; the answer goes out
      // without its CORS header, so the page cannot read it (a cut socket would not do: Chromium
      // resends a request whose reused connection closed before any answer).
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
      res.writeHead = ((...args: unknown[]) => {
        res.removeHeader('access-control-allow-origin');
        return writeHead(...args);
      }) as typeof res.writeHead;
    }
    next();
  });
  onlyPost.use(sessauthMiddleware(example.auth));
  postOnly = await listen(onlyPost);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([spa?.close(), corsAfter?.close(), noPreflight?.close(), postOnly?.close(), example?.close()]);
});

async function openSpa(tab: Page): Promise<void> {
  await tab.goto(`${spa.origin}/`);
  await tab.waitForFunction(() => (window as Window & { ready?: boolean }).ready === true);
}

describe('@sessauth/client against an API whose CORS is misconfigured (Chromium)', () => {
  it('CORS after the middleware: login is network_error naming CORS; a second tab restore() rejects the same way and signs no tab out', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    const [first, second] = [await context.newPage(), await context.newPage()];
    await Promise.all([openSpa(first), openSpa(second)]);
    const api = `${corsAfter.origin}/`;

    const login = await first.evaluate(([base]) => window.sessauthCall(base!, 'login'), [api]);
    expect(login).toMatchObject({ outcome: 'rejected', code: 'network_error', status: 'unknown', signedOut: [] });
    expect(login.message).toMatch(/CORS/);

    const restore = await second.evaluate(([base]) => window.sessauthCall(base!, 'restore'), [api]);
    // Not "signed out (ambiguous)": the refresh never left the browser (its CSRF token's GET failed first).
    expect(restore).toMatchObject({ outcome: 'rejected', code: 'network_error', status: 'unknown', signedOut: [] });
    expect(restore.message).toMatch(/CORS/);
    expect(corsAfter.seen.filter((line) => line.startsWith('POST /auth/refresh/'))).toEqual([]);
    await context.close();
  });

  it('a refused preflight: restore() finds out by two harmless requests that the refresh was never sent, and keeps the session', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    const tab = await context.newPage();
    await openSpa(tab);
    const restore = await tab.evaluate(([base]) => window.sessauthCall(base!, 'restore'), [`${noPreflight.origin}/`]);
    expect(restore).toMatchObject({ outcome: 'rejected', code: 'network_error', status: 'unknown', signedOut: [] });
    expect(restore.message).toMatch(/preflight/);
    // The browser sent the preflights and the simple GETs, never the POST itself.
    expect(noPreflight.seen.some((line) => line.startsWith('OPTIONS /auth/refresh/'))).toBe(true);
    expect(noPreflight.seen.filter((line) => line.startsWith('POST /auth/refresh/'))).toEqual([]);
    await context.close();
  });

  it('a CORS layer that allows only POST: a processed refresh whose answer was lost stays ambiguous, not "never sent"', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    const api = `${postOnly.origin}/`;
    const first = await context.newPage();
    await openSpa(first);
    expect(await first.evaluate(([base]) => window.sessauthCall(base!, 'login'), [api])).toMatchObject({ outcome: 'resolved', status: 'signed-in' });
    // Closed, so the next tab cannot adopt its token and must refresh with the cookie.
    await first.close();
    const tab = await context.newPage();
    await openSpa(tab);
    dropNextRefreshAnswer = true;
    const restore = await tab.evaluate(([base]) => window.sessauthCall(base!, 'restore'), [api]);
    // The refresh reached the API and rotated the token: the client must not keep the spent one as if
    // nothing was sent (its next refresh would present it and trip reuse detection). The probe asks
    // for the refresh's own preflight (POST), which this CORS layer grants.
    expect(postOnly.seen.filter((line) => line.startsWith('POST /auth/refresh/'))).toHaveLength(1);
    expect(restore.message).not.toMatch(/preflight/);
    expect(restore).toMatchObject({ status: 'signed-out', signedOut: ['ambiguous'] });
    await context.close();
  });
});
