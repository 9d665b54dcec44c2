import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, layoutProblems, pngByteVariety, pngSize, startExample, type ExampleServer } from '@sessauth/browser-support';
import { cspViolationsOf, newDevice, openDemo, signIn, sleep, waitForRows } from './support/demo-page.js';
import { CLIENT_EXAMPLE_ENV } from './support/example-env.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../test-output/', import.meta.url));
const LONDON = '81.2.69.142';
const LISBON = '2.125.160.216';
/** Another network than London's /24, with no place in the fake table. */
const ELSEWHERE = '1.128.0.10';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';
const VIEWPORT = { width: 960, height: 640 };

const browser: Browser | null = await launchChromium();

/**
 * The demo page's activity view (issue 23 point 5) in headless Chromium against `pnpm example
 * express` on SQLite, with the history and the risk signals on as the examples default them:
 * a laptop in London, then a phone in Lisbon with another browser; the laptop moves network.
 */
describe.skipIf(browser === null)('demo page: activity view and risk-signal badges (express example, SQLite)', () => {
  let server: ExampleServer;
  let dataDir: string;
  const chromium = browser!;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sessauth-activity-view-'));
    server = await startExample('express', { env: { ...CLIENT_EXAMPLE_ENV, SESSAUTH_STORE: `sqlite:${join(dataDir, 'sessauth.db')}` } });
  });
  afterAll(async () => {
    await server?.stop();
    await browser?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The table row of a session, from the page that lists it. */
  const rowOf = (page: Page, current: boolean) => page.locator(current ? '#sessions tr.current' : '#sessions tr:not(.current)');
  const badgesOf = (page: Page, current: boolean) => rowOf(page, current).locator('td.activity .signal');

  it('two devices on two networks: the history lists the events, the badges are visible and laid out, screenshots taken', async () => {
    const laptop = await newDevice(chromium, LONDON);
    const phone = await newDevice(chromium, LISBON, { userAgent: FIREFOX_ON_WINDOWS, viewport: VIEWPORT });
    const a = await openDemo(laptop, server.origin);
    await signIn(a, 'alice', 'alice-password');
    const b = await openDemo(phone, server.origin);
    await signIn(b, 'alice', 'alice-password');

    // The laptop moves to another network; its next refresh (tokens live 2 s) records it.
    await laptop.setExtraHTTPHeaders({ 'x-forwarded-for': ELSEWHERE });
    await sleep(2_500);
    expect(await a.evaluate(() => window.sessauth.fetch('/me').then((response) => response.status))).toBe(200);

    await a.click('#reload');
    await waitForRows(a, 2);
    await a.waitForFunction(() => document.querySelectorAll('#sessions td.activity .signal').length >= 4, undefined, { timeout: 15_000 });

    // The phone's session (seen from the laptop): a new browser, a new country, London -> Lisbon in seconds.
    expect(await badgesOf(a, false).allTextContents()).toEqual(['new device', 'new country', 'impossible travel']);
    // The laptop's own session: its refresh came from outside its login network.
    expect(await badgesOf(a, true).allTextContents()).toEqual(['new network']);
    // Last used: the laptop's last client is the new address, the login's stays in "IP address".
    const current = rowOf(a, true);
    expect(await current.locator('td').nth(1).textContent()).toBe(LONDON);
    expect(await current.locator('td.last-used small').textContent()).toBe(`from ${ELSEWHERE}`);
    expect(await rowOf(a, false).locator('td.last-used small').count()).toBe(0);

    // The history is folded until asked for, then lists the events newest first.
    const phoneHistory = rowOf(a, false).locator('td.activity details');
    expect(await phoneHistory.locator('ol').isVisible()).toBe(false);
    await phoneHistory.locator('summary').click();
    const phoneEvents = await phoneHistory.locator('li').allTextContents();
    expect(await phoneHistory.locator('summary').textContent()).toBe(`${phoneEvents.length} events`);
    // Newest first; the phone's own silent refreshes from the same place add bare "Used" lines.
    const phoneWhat = phoneEvents.map((line) => line.split(' — ')[1]).filter((what) => what !== 'Used');
    expect(phoneWhat).toEqual(['Risk signal: impossible travel', 'Risk signal: new country', 'Risk signal: new device', 'Signed in']);
    expect(phoneEvents.at(-1)).toContain(`Signed in — ${LISBON} · Firefox on Windows · Lisbon, PT`);
    const laptopHistory = current.locator('td.activity details');
    await laptopHistory.locator('summary').click();
    const laptopEvents = (await laptopHistory.locator('li').allTextContents()).map((line) => line.split(' — ').slice(1).join(' — '));
    // The refresh from the new network: its entry with the new address, then the signal raised for it.
    const moved = laptopEvents.indexOf(`Risk signal: new network — ${ELSEWHERE} · Chrome on Linux`);
    expect(moved, laptopEvents.join('\n')).toBeGreaterThanOrEqual(0);
    expect(laptopEvents[moved + 1]).toBe(`Used — ${ELSEWHERE}`);
    expect(laptopEvents.at(-1)).toBe(`Signed in — ${LONDON} · Chrome on Linux · London, GB`);

    // Laid out: every badge and each history's summary visible, inside the viewport, none on another.
    for (const isCurrent of [false, true]) {
      const row = rowOf(a, isCurrent);
      const parts = [...(await row.locator('td.activity .signal').all()), row.locator('td.activity summary')];
      expect(await layoutProblems(a, parts)).toEqual([]);
    }
    // Both histories open, the table still fits the 960 px screen: no sideways scrolling, the buttons on screen.
    expect(await a.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await layoutProblems(a, await rowOf(a, false).locator('button').all())).toEqual([]);
    // The expanded list sits below the badges, not over them.
    expect(await layoutProblems(a, [...(await badgesOf(a, false).all()), phoneHistory.locator('ol')])).toEqual([]);
    // An expanded list stays open when the table is drawn again (new rows replace the marked ones).
    await a.$$eval('#sessions tr', (rows) => {
      for (const row of rows) row.setAttribute('data-stale', '');
    });
    await a.click('#reload');
    await a.waitForFunction(() => document.querySelectorAll('#sessions tr:not([data-stale]) td.activity .signal').length >= 4, undefined, {
      timeout: 15_000,
    });
    expect(await rowOf(a, false).locator('td.activity ol').isVisible()).toBe(true);

    // Screenshots: real images of the viewport's and the element's size (not compared pixel by pixel).
    mkdirSync(SCREENSHOTS, { recursive: true });
    await rowOf(a, false).scrollIntoViewIfNeeded();
    const shot = await a.screenshot({ path: `${SCREENSHOTS}demo-activity-view.png` });
    expect(pngSize(shot)).toEqual(VIEWPORT);
    expect(pngByteVariety(shot)).toBeGreaterThan(50);
    const cell = rowOf(a, false).locator('td.activity');
    const cellBox = (await cell.boundingBox())!;
    const cellShot = await cell.screenshot({ path: `${SCREENSHOTS}demo-activity-cell.png` });
    const cellSize = pngSize(cellShot);
    expect(Math.abs(cellSize.width - cellBox.width)).toBeLessThanOrEqual(2); // the box is in fractional CSS pixels, the image in whole ones
    expect(Math.abs(cellSize.height - cellBox.height)).toBeLessThanOrEqual(2); // the box is in fractional CSS pixels, the image in whole ones
    expect(pngByteVariety(cellShot)).toBeGreaterThan(20);

    // The phone sees its own badges on its current row.
    await b.click('#reload');
    await b.waitForFunction(() => document.querySelectorAll('#sessions tr.current td.activity .signal').length === 3, undefined, {
      timeout: 15_000,
    });
    expect([...(await cspViolationsOf(a)), ...(await cspViolationsOf(b)), ...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([laptop.close(), phone.close()]);
  });

  it('on a phone (390 px wide) the activity column fits: nothing overflows, badges laid out', async () => {
    const laptop = await newDevice(chromium, LONDON);
    await signIn(await openDemo(laptop, server.origin), 'bob', 'bob-password');
    const context = await newDevice(chromium, LISBON, { userAgent: FIREFOX_ON_WINDOWS, viewport: { width: 390, height: 844 } });
    const page = await openDemo(context, server.origin);
    await signIn(page, 'bob', 'bob-password');
    await page.waitForFunction(() => document.querySelectorAll('#sessions tr.current td.activity .signal').length === 3, undefined, {
      timeout: 15_000,
    });
    await page.locator('#sessions tr.current td.activity summary').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    const current = page.locator('#sessions tr.current td.activity');
    expect(await layoutProblems(page, [...(await current.locator('.signal').all()), current.locator('summary')])).toEqual([]);
    const shot = await page.screenshot({ path: `${SCREENSHOTS}demo-activity-390px.png`, fullPage: true });
    expect(pngSize(shot).width).toBe(390);
    expect(pngByteVariety(shot)).toBeGreaterThan(50);
    expect([...(await cspViolationsOf(page)), ...page.errors]).toEqual([]);
    await Promise.all([laptop.close(), context.close()]);
  });
});
