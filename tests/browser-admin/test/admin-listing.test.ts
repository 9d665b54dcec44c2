import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startExample, type ExampleServer } from '@sessauth/browser-support';
import { seedSessions, XSS_USER_AGENT } from './support/seed-sessions.js';

const ADMIN = '/admin/sessauth/session/';
const OUTPUT = fileURLToPath(new URL('../../../test-output/', import.meta.url));
/**
 * alice is the admin. The seeding logins are API calls (curl-like), so the refresh token
 * travels in the body; bob's five logins with a cap of three leave two sessions revoked.
 */
const ADMIN_EXAMPLE_ENV = {
  SESSAUTH_ADMIN_USERS: 'alice',
  JWT_LOGIN_THROTTLE_RATE: '0',
  JWT_REFRESH_TOKEN_TRANSPORT: 'body',
  JWT_MAX_ACTIVE_SESSIONS: '3',
};
// Examples whose adapter serves the admin prefix (and fills the query string).
const ADAPTERS = (process.env.SESSAUTH_BROWSER_ADAPTERS ?? 'express,fastify,koa,fetch')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

let browser: Browser | null = null;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function signIn(page: Page, origin: string, username: string, password: string): Promise<number> {
  await page.goto(`${origin}${ADMIN}sign-in/`);
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/sign-in/')),
    page.click('button[type=submit]'),
  ]);
  await page.waitForLoadState();
  return response.status();
}

const rowIds = (page: Page): Promise<string[]> =>
  page.$$eval('tr[data-session-id]', (rows) => rows.map((row) => row.getAttribute('data-session-id') ?? ''));

describe.each(ADAPTERS)('admin listing in a browser, %s example', (adapter) => {
  let example: ExampleServer;
  let context: BrowserContext;
  let page: Page;
  let seeded = 0;
  const dialogs: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    if (browser === null) return;
    example = await startExample(adapter, { env: ADMIN_EXAMPLE_ENV });
    seeded = await seedSessions(example.origin);
    context = await browser.newContext();
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await example?.stop();
  });

  it('shows an anonymous visitor the sign-in form with 401', async (ctx) => {
    if (browser === null) return ctx.skip();
    const response = await page.goto(`${example.origin}${ADMIN}`);
    expect(response?.status()).toBe(401);
    await expect(page.locator('input[name=password]').count()).resolves.toBe(1);
    expect(await page.locator('table').count()).toBe(0);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: `${OUTPUT}browser-admin-${adapter}-sign-in.png` });
  });

  it('refuses bob (not an admin) with 403 and lists nothing', async (ctx) => {
    if (browser === null) return ctx.skip();
    expect(await signIn(page, example.origin, 'bob', 'bob-password')).toBe(403);
    expect(await page.textContent('body')).toContain('This account is not an administrator.');
    expect(await page.locator('tr[data-session-id]').count()).toBe(0);
  });

  it('lets alice in: every session, newest first, the script User-Agent shown as text', async (ctx) => {
    if (browser === null) return ctx.skip();
    expect(await signIn(page, example.origin, 'alice', 'alice-password')).toBe(303);
    expect(new URL(page.url()).pathname).toBe(ADMIN);
    const ids = await rowIds(page);
    expect(ids).toHaveLength(seeded + 1); // + alice's own browser sign-in
    const users = await page.$$eval('tr[data-session-id] td:nth-child(2)', (cells) => cells.map((c) => c.textContent));
    expect(users[0]).toBe('user-alice'); // the sign-in just made is the newest
    const uaCells = await page.$$eval('td.ua small', (cells) => cells.map((c) => c.textContent));
    expect(uaCells).toContain(XSS_USER_AGENT);
    expect(await page.$$eval('script', (scripts) => scripts.length)).toBe(0);
    // The stylesheet is allowed by its hash: the header is styled, and no CSP report.
    expect(await page.$eval('header', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(36, 41, 47)');
  });

  it('filters by user and by status', async (ctx) => {
    if (browser === null) return ctx.skip();
    await page.fill('input[name=user]', 'user-bob');
    await page.selectOption('select[name=status]', 'revoked');
    await Promise.all([page.waitForURL(/status=revoked/), page.click('form.filters button[type=submit]')]);
    const statuses = await page.$$eval('tr[data-session-id]', (rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(statuses).toEqual(['revoked', 'revoked']);
    const users = await page.$$eval('tr[data-session-id] td:nth-child(2)', (cells) => cells.map((c) => c.textContent));
    expect(users).toEqual(['user-bob', 'user-bob']);
    await page.selectOption('select[name=status]', 'active');
    await Promise.all([page.waitForURL(/status=active/), page.click('form.filters button[type=submit]')]);
    expect(await page.$$eval('tr[data-status=active]', (rows) => rows.length)).toBe(3);
    expect(await page.$$eval('tr[data-session-id]', (rows) => rows.length)).toBe(3);
  });

  it('pages through everything with the Next page link, each session once', async (ctx) => {
    if (browser === null) return ctx.skip();
    await page.goto(`${example.origin}${ADMIN}?limit=3`);
    const seen: string[] = [];
    for (let guard = 0; guard < 10; guard++) {
      const ids = await rowIds(page);
      expect(ids.length).toBeLessThanOrEqual(3);
      seen.push(...ids);
      const next = page.locator('a[rel=next]');
      if ((await next.count()) === 0) break;
      await Promise.all([page.waitForURL(/after=/), next.click()]);
    }
    expect(seen).toHaveLength(seeded + 1);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('ran no script and broke no CSP rule; a screenshot is kept', async (ctx) => {
    if (browser === null) return ctx.skip();
    await page.goto(`${example.origin}${ADMIN}`);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: `${OUTPUT}browser-admin-${adapter}.png`, fullPage: true });
    expect(dialogs).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('signs out: the admin session ends and the form is back', async (ctx) => {
    if (browser === null) return ctx.skip();
    await Promise.all([page.waitForURL(/session\/$/), page.click('header button[type=submit]')]);
    expect(await page.locator('input[name=password]').count()).toBe(1);
    const response = await page.goto(`${example.origin}${ADMIN}`);
    expect(response?.status()).toBe(401);
  });
});
