import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startExample, type ExampleServer } from '@sessauth/browser-support';
import { CLIENT_EXAMPLE_ENV } from './support/example-env.js';
import { SEED_FLOW_PAGE_PATH, seedFlowPageHtml, type SeedFlowCall } from './support/seed-flow-page.js';

const ADAPTERS = (process.env.SESSAUTH_BROWSER_ADAPTERS ?? 'express,fastify,koa,fetch')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

interface SeedFlowResult {
  readonly calls: SeedFlowCall[];
  readonly sessions: { browser: string | null; is_current: boolean }[];
  readonly csrfFromStepOne: string;
}

declare global {
  interface Window {
    seedFlow(username: string, password: string): Promise<SeedFlowResult>;
  }
}

let browser: Browser | null = null;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

// The seed's "Browser flow" (steps 1-3) from a plain page in Chromium, in cookie transport.
describe.each(ADAPTERS)("the seed's browser flow from a plain page, %s example", (adapter) => {
  let server: ExampleServer;

  beforeAll(async () => {
    if (browser === null) return;
    server = await startExample(adapter, { env: CLIENT_EXAMPLE_ENV });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('one GET /auth/csrf/, then login, five refreshes, the session list and logout: only 200s', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const context = await browser.newContext();
    // The page lives on the example's origin (its cookies are first-party), served by this test.
    await context.route(`${server.origin}${SEED_FLOW_PAGE_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: seedFlowPageHtml('/auth') }),
    );
    // What actually went over the wire: the browser's own headers, cookies included.
    const sent: Promise<{ path: string; csrf: string | undefined; refreshCookie: boolean }>[] = [];
    context.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith('/auth/')) return;
      sent.push(
        request.allHeaders().then((headers) => ({
          path,
          csrf: headers['x-csrftoken'],
          refreshCookie: /(^|;\s*)refresh_token=/.test(headers.cookie ?? ''),
        })),
      );
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.origin}${SEED_FLOW_PAGE_PATH}`);

    const { calls, sessions, csrfFromStepOne } = await page.evaluate(() => window.seedFlow('alice', 'alice-password'));

    expect(calls.map((call) => `${call.step} ${call.status}`)).toEqual([
      'csrf 200',
      'login 200',
      'refresh 1 200',
      'refresh 2 200',
      'refresh 3 200',
      'refresh 4 200',
      'refresh 5 200',
      'sessions 200',
      'logout 200',
    ]);
    // The masked value of step 1, and no other, on the login and every refresh.
    expect(csrfFromStepOne).toMatch(/^[A-Za-z0-9]{64}$/);
    const masked = new Set(calls.filter((call) => call.step === 'login' || call.step.startsWith('refresh')).map((call) => call.csrf));
    expect([...masked]).toEqual([csrfFromStepOne]);
    // Each refresh rotated the tokens.
    const tokens = calls.filter((call) => call.accessToken !== null).map((call) => call.accessToken);
    expect(new Set(tokens).size).toBe(6);
    // The browser sent the refresh cookie and that same header on every refresh.
    const refreshes = (await Promise.all(sent)).filter((request) => request.path === '/auth/refresh/');
    expect(refreshes).toHaveLength(5);
    expect(refreshes.every((request) => request.refreshCookie && request.csrf === csrfFromStepOne)).toBe(true);
    // The device list names this browser by its families.
    expect(sessions.filter((session) => session.is_current).map((session) => session.browser)).toEqual(['Chrome on Linux']);

    // Logged out: a refresh from this page no longer works.
    const after = await page.evaluate(
      async () =>
        (await fetch('/auth/refresh/', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{}' }))
          .status,
    );
    expect(after).not.toBe(200);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
