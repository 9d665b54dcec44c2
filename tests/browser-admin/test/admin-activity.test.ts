import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, layoutProblems, pngByteVariety, pngSize, startExample, type ExampleServer } from '@sessauth/browser-support';

const ADMIN = '/admin/sessauth/session/';
const OUTPUT = fileURLToPath(new URL('../../../test-output/', import.meta.url));
const LONDON = '81.2.69.142';
const LISBON = '2.125.160.216';
const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const VIEWPORT = { width: 1400, height: 800 };

/**
 * The admin listing's activity view (issue 23 point 5): the express example on SQLite with the
 * history and signals on (the examples' default), the proxy on loopback trusted (each login
 * names its address with X-Forwarded-For) and a cap of two sessions, so bob's three logins
 * leave one revoked by the cap.
 */
const ENV = {
  SESSAUTH_ADMIN_USERS: 'alice',
  JWT_LOGIN_THROTTLE_RATE: '0',
  JWT_REFRESH_TOKEN_TRANSPORT: 'body',
  JWT_MAX_ACTIVE_SESSIONS: '2',
  JWT_TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
  JWT_GEOLOCATION_PROVIDER: fileURLToPath(new URL('./support/fake-geolocation.mjs', import.meta.url)),
};

/** One API login of bob from an address and a browser; its session id. */
async function login(origin: string, ip: string, userAgent: string): Promise<string> {
  const response = await fetch(`${origin}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, 'x-forwarded-for': ip },
    body: JSON.stringify({ username: 'bob', password: 'bob-password' }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const { access_token } = (await response.json()) as { access_token: string };
  return (JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
}

const browser: Browser | null = await launchChromium();

describe.skipIf(browser === null)('admin listing: activity view and risk-signal badges (express example, SQLite)', () => {
  let example: ExampleServer;
  let dataDir: string;
  let context: BrowserContext;
  let page: Page;
  const sessions: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sessauth-admin-activity-'));
    example = await startExample('express', { env: { ...ENV, SESSAUTH_STORE: `sqlite:${join(dataDir, 'sessauth.db')}` } });
    sessions.push(await login(example.origin, LONDON, CHROME_ON_WINDOWS)); // revoked by the cap at the third login
    sessions.push(await login(example.origin, LISBON, FIREFOX_ON_LINUX)); // a new device, a new country, impossible travel
    sessions.push(await login(example.origin, LONDON, CHROME_ON_WINDOWS));
    context = await browser!.newContext({ viewport: VIEWPORT });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await page.goto(`${example.origin}${ADMIN}sign-in/`);
    await page.fill('input[name=username]', 'alice');
    await page.fill('input[name=password]', 'alice-password');
    await Promise.all([page.waitForURL(`${example.origin}${ADMIN}`), page.click('button[type=submit]')]);
  });
  afterAll(async () => {
    await context?.close();
    await example?.stop();
    await browser?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const row = (id: string) => page.locator(`tr[data-session-id="${id}"]`);

  it("lists each session's history with its badges; the cap's revocation says so", async () => {
    await page.goto(`${example.origin}${ADMIN}?user=user-bob`);
    expect(await page.locator('thead th').allTextContents()).toContain('Activity');
    const [capped, lisbon, latest] = sessions.map(row) as [ReturnType<typeof row>, ReturnType<typeof row>, ReturnType<typeof row>];
    expect(await capped.getAttribute('data-status')).toBe('revoked');

    expect(await lisbon.locator('td.activity .signal').allTextContents()).toEqual(['new device', 'new country', 'impossible travel']);
    expect(await capped.locator('td.activity .signal').count()).toBe(0);
    // Back in London from Chrome: new again against the only other active session (Lisbon, Firefox).
    expect(await latest.locator('td.activity .signal').allTextContents()).toEqual(['new device', 'new country', 'impossible travel']);

    // Folded until opened (a <details>: the page runs no script), newest first.
    const history = lisbon.locator('td.activity details');
    expect(await history.locator('summary').textContent()).toBe('4 events');
    expect(await history.locator('ol').isVisible()).toBe(false);
    await history.locator('summary').click();
    expect(await history.locator('ol').isVisible()).toBe(true);
    expect(await history.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual([
      'risk_signal',
      'risk_signal',
      'risk_signal',
      'created',
    ]);
    expect(await history.locator('li[data-kind=created]').textContent()).toContain(`${LISBON} · Firefox on Linux · Lisbon, Portugal (PT)`);

    const cappedHistory = capped.locator('td.activity details');
    await cappedHistory.locator('summary').click();
    expect(await cappedHistory.locator('li').evaluateAll((items) => items.map((item) => item.textContent?.replace(/^\S+ \S+ UTC /, '')))).toEqual([
      'revoked max_active_sessions',
      `signed in ${LONDON} · Chrome on Windows · London, United Kingdom (GB)`,
    ]);

    // Laid out: visible, inside the viewport, not on each other nor on the history's summary.
    for (const one of [lisbon, latest]) {
      const cell = one.locator('td.activity');
      expect(await layoutProblems(page, [...(await cell.locator('.signal').all()), cell.locator('summary')])).toEqual([]);
    }
    expect(await layoutProblems(page, [...(await lisbon.locator('td.activity .signal').all()), history.locator('ol')])).toEqual([]);
    // The badges sit in their own column: not over the location or the status beside them.
    expect(await layoutProblems(page, [lisbon.locator('td').nth(6), lisbon.locator('td.activity'), lisbon.locator('td').last()])).toEqual([]);

    mkdirSync(OUTPUT, { recursive: true });
    const shot = await page.screenshot({ path: `${OUTPUT}browser-admin-activity.png` });
    expect(pngSize(shot)).toEqual(VIEWPORT);
    expect(pngByteVariety(shot)).toBeGreaterThan(50);
    const cell = lisbon.locator('td.activity');
    const box = (await cell.boundingBox())!;
    const cellShot = await cell.screenshot({ path: `${OUTPUT}browser-admin-activity-cell.png` });
    expect(Math.abs(pngSize(cellShot).width - box.width)).toBeLessThanOrEqual(2); // the box is in fractional CSS pixels, the image in whole ones
    expect(Math.abs(pngSize(cellShot).height - box.height)).toBeLessThanOrEqual(2); // the box is in fractional CSS pixels, the image in whole ones
    expect(pngByteVariety(cellShot)).toBeGreaterThan(20);
    expect(await page.$$eval('script', (scripts) => scripts.length)).toBe(0);
    expect(cspViolations).toEqual([]);
  });

  it('the JSON listing carries the same history, signals and last client', async () => {
    const response = await page.goto(`${example.origin}${ADMIN}?user=user-bob&format=json`);
    const body = (await response!.json()) as {
      sessions: { id: string; signals?: string[]; last_ip_address?: string | null; activity?: { kind: string; detail: string | null }[] }[];
    };
    const byId = new Map(body.sessions.map((session) => [session.id, session]));
    expect(byId.get(sessions[1]!)).toMatchObject({ signals: ['new_device', 'new_country', 'impossible_travel'], last_ip_address: LISBON });
    expect(byId.get(sessions[0]!)?.activity?.map((entry) => [entry.kind, entry.detail])).toEqual([
      ['created', null],
      ['revoked', 'max_active_sessions'],
    ]);
  });
});
