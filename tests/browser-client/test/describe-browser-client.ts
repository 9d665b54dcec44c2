import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changePassword,
  cspViolationsOf,
  eventsOf,
  newDevice,
  nextRequest,
  openDemo,
  sessionRows,
  signedIn,
  signedOut,
  signIn,
  sleep,
  waitForEvent,
  waitForMessage,
  waitForRows,
} from './support/demo-page.js';
import { startExample, type ExampleServer } from '@sessauth/browser-support';
import { CLIENT_EXAMPLE_ENV } from './support/example-env.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../test-output/', import.meta.url));
const LONDON = '81.2.69.142';
const LISBON = '2.125.160.216';

/**
 * The browser flow of the demo page and the client's promises, in headless
 * Chromium against `pnpm example <adapter>` with access tokens of 2 seconds.
 */
export function describeBrowserClient(adapter: string, browser: Browser | null): void {
  describe.skipIf(browser === null)(`browser client and demo page on the ${adapter} example`, () => {
    let server: ExampleServer;
    const chromium = browser!;

    beforeAll(async () => {
      server = await startExample(adapter, { env: CLIENT_EXAMPLE_ENV });
    });
    afterAll(async () => {
      await server?.stop();
      await browser?.close();
    });

    it('four tabs, ten requests each at once, across several expiries: all succeed, no reuse', async () => {
      const context = await newDevice(chromium, LONDON);
      const first = await openDemo(context, server.origin);
      await signIn(first, 'bob', 'bob-password');
      // (Before the sign-in, the page's restore found no session: that refresh's 401 is expected.)
      const refreshStatuses: number[] = [];
      context.on('response', (response) => {
        if (response.url().endsWith('/auth/refresh/')) refreshStatuses.push(response.status());
      });
      // Tabs opened later have no token: they adopt the first tab's instead of racing it.
      const tabs = [first, ...(await Promise.all([1, 2, 3].map(() => openDemo(context, server.origin))))];
      for (const tab of tabs) await signedIn(tab);

      // Eight bursts, 700 ms apart: about three lifetimes of a 2-second token.
      const statuses: number[] = [];
      for (let round = 0; round < 8; round++) {
        const burst = await Promise.all(
          tabs.map((tab) => tab.evaluate(() => Promise.all(Array.from({ length: 10 }, () => window.sessauth.fetch('/me').then((r) => r.status))))),
        );
        statuses.push(...burst.flat());
        await sleep(700);
      }
      const events = (await Promise.all(tabs.map(eventsOf))).flat();
      const cspViolations = (await Promise.all(tabs.map(cspViolationsOf))).flat();
      await context.close();
      console.log(
        `[${adapter}] ${statuses.length} requests, ${refreshStatuses.length} refreshes, events:`,
        Object.entries(events.reduce<Record<string, number>>((n, e) => ({ ...n, [e]: (n[e] ?? 0) + 1 }), {})),
      );

      expect(statuses).toHaveLength(8 * 4 * 10);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(refreshStatuses.length).toBeGreaterThanOrEqual(3); // several expiries were crossed
      expect(refreshStatuses.filter((status) => status !== 200)).toEqual([]);
      // One tab refreshed each time and the others adopted its token.
      expect(events.filter((e) => e === 'refreshed:other-tab').length).toBeGreaterThanOrEqual(refreshStatuses.length);
      expect(events.filter((e) => e.startsWith('signed-out'))).toEqual([]);
      expect(server.logEvents('token_reuse_detected')).toEqual([]);
      expect(tabs.flatMap((tab) => tab.errors)).toEqual([]);
      expect(cspViolations).toEqual([]); // the page runs whole under its strict CSP
    });

    it('two devices see each other; one signs the other out; "sign out everywhere" ends both', async () => {
      const [laptop, phone] = [await newDevice(chromium, LONDON), await newDevice(chromium, LISBON)];
      const a = await openDemo(laptop, server.origin);
      await signIn(a, 'alice', 'alice-password');
      const b = await openDemo(phone, server.origin);
      await signIn(b, 'alice', 'alice-password');
      await a.click('#reload');
      await waitForRows(a, 2);
      const rows = await sessionRows(a);
      expect(rows.filter((row) => row.current)).toEqual([expect.objectContaining({ ip: LONDON, place: 'London, United Kingdom' })]);
      expect(rows.find((row) => row.current)!.browser).toMatch(/^Chrome on Linux\s*this device$/);
      expect(rows.filter((row) => !row.current)).toEqual([expect.objectContaining({ ip: LISBON, place: 'Lisbon, Portugal' })]);
      expect((await sessionRows(b)).find((row) => row.current)?.ip).toBe(LISBON);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await a.screenshot({ path: `${SCREENSHOTS}demo-${adapter}-signed-in.png`, fullPage: true });

      // The laptop signs the phone out; the phone loses access on its next request.
      await a.click('#sessions tr:not(.current) button');
      await waitForRows(a, 1);
      await nextRequest(b);
      await signedOut(b);
      await waitForEvent(b, 'signed-out:revoked');
      expect(await b.textContent('#message')).toContain('This device was signed out');

      // Both in again; "sign out other devices" from the laptop ends the phone and keeps the laptop.
      await signIn(b, 'alice', 'alice-password');
      await a.click('#reload');
      await waitForRows(a, 2);
      await a.click('#sign-out-others');
      await waitForRows(a, 1);
      await nextRequest(b);
      await signedOut(b);
      expect(await a.isVisible('#account')).toBe(true);

      // Both in again, then "sign out everywhere" from the laptop.
      await signIn(b, 'alice', 'alice-password');
      await a.click('#reload');
      await waitForRows(a, 2);
      await a.click('#sign-out-everywhere');
      await signedOut(a);
      expect(await a.textContent('#message')).toBe('You are signed out.');
      await a.screenshot({ path: `${SCREENSHOTS}demo-${adapter}-after-sign-out-everywhere.png`, fullPage: true });
      await nextRequest(b);
      await signedOut(b);
      expect((await eventsOf(b)).filter((e) => e === 'signed-out:revoked')).toHaveLength(3);
      await b.screenshot({ path: `${SCREENSHOTS}demo-${adapter}-other-device-after-sign-out-everywhere.png`, fullPage: true });
      expect(
        await a.evaluate(() =>
          window.sessauth.fetch('/me').then(
            () => 'sent',
            (e: { code: string }) => e.code,
          ),
        ),
      ).toBe('signed_out');
      expect([...a.errors, ...b.errors]).toEqual([]);
      await Promise.all([laptop.close(), phone.close()]);
    });

    it('a stale sign-in (JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS): "sign out other devices" asks for the password, then goes through', async () => {
      const strict = await startExample(adapter, { env: { ...CLIENT_EXAMPLE_ENV, JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS: '3' } });
      try {
        const [laptop, phone] = [await newDevice(chromium, LONDON), await newDevice(chromium, LISBON)];
        const a = await openDemo(laptop, strict.origin);
        await signIn(a, 'alice', 'alice-password');
        const b = await openDemo(phone, strict.origin);
        await signIn(b, 'alice', 'alice-password');
        await sleep(3_500);

        // Stale: the server answers 401 insufficient_user_authentication; the page asks for the password.
        const prompts: string[] = [];
        a.on('dialog', (dialog) => {
          prompts.push(dialog.message());
          void dialog.accept(prompts.length === 1 ? 'not-the-password' : 'alice-password');
        });
        await a.click('#sign-out-others');
        await waitForMessage(a, 'That password is not right.');
        await a.click('#reload');
        await waitForRows(a, 2); // nothing ended while the sign-in was stale
        await signedIn(a);
        // The step-up, then the action at once: the fresh window (3 s) starts at the confirmation.
        await a.click('#sign-out-others');
        await waitForMessage(a, 'Confirmed. Please try again.');
        expect(prompts).toEqual(['Please confirm your password to continue', 'Please confirm your password to continue']);

        await a.click('#sign-out-others');
        await waitForRows(a, 1);
        await nextRequest(b);
        await signedOut(b);
        await signedIn(a);
        expect((await eventsOf(a)).filter((e) => e.startsWith('signed-out'))).toEqual([]);
        expect([...(await cspViolationsOf(a)), ...a.errors, ...b.errors]).toEqual([]);
        await Promise.all([laptop.close(), phone.close()]);
      } finally {
        await strict.stop();
      }
    });

    it('the password form: a wrong current password changes nothing; the right one signs every device out', async () => {
      const [laptop, phone] = [await newDevice(chromium, LONDON), await newDevice(chromium, LISBON)];
      const a = await openDemo(laptop, server.origin);
      await signIn(a, 'carol', 'carol-password');
      const b = await openDemo(phone, server.origin);
      await signIn(b, 'carol', 'carol-password');

      await changePassword(a, 'not-the-password', 'carol-password-2');
      await waitForMessage(a, 'The current password is wrong.');
      await signedIn(a);

      await changePassword(a, 'carol-password', 'carol-password-2');
      await waitForMessage(a, 'Password changed: every device was signed out. Sign in with the new password.');
      await signedOut(a);
      await nextRequest(b);
      await signedOut(b);
      await waitForEvent(b, 'signed-out:revoked');

      await a.fill('input[name=username]', 'carol');
      await a.fill('input[name=password]', 'carol-password');
      await a.click('#sign-in button');
      await waitForMessage(a, 'Wrong username or password.');
      await signIn(a, 'carol', 'carol-password-2');
      // The page runs whole under its strict CSP (hashes, Trusted Types): nothing was blocked.
      expect([...(await cspViolationsOf(a)), ...(await cspViolationsOf(b))]).toEqual([]);
      expect([...a.errors, ...b.errors]).toEqual([]);
      await Promise.all([laptop.close(), phone.close()]);
    });

    it('"Remember me" unticked gives a browser-session refresh cookie; a device is named from the list', async () => {
      const context = await newDevice(chromium, LONDON);
      const page = await openDemo(context, server.origin);
      await signedOut(page);
      await page.uncheck('input[name=remember]');
      await signIn(page, 'bob', 'bob-password');
      const refreshCookie = (await context.cookies()).find((cookie) => cookie.name === 'refresh_token');
      expect(refreshCookie?.expires).toBe(-1); // no Max-Age or Expires: it ends with the browser

      page.once('dialog', (dialog) => void dialog.accept('  Work laptop '));
      await page.click('#sessions tr.current button.rename');
      await page.waitForFunction(
        () => document.querySelector('#sessions tr.current td')?.textContent?.startsWith('Work laptop (Chrome on Linux)'),
        undefined,
        { timeout: 15_000 },
      );
      const current = await page.evaluate(() => window.sessauth.listSessions().then((rows) => rows.find((row) => row.is_current)));
      expect(current?.name).toBe('Work laptop');
      // Renewed across a token lifetime, the cookie stays a browser-session cookie.
      await sleep(2_500);
      expect(await page.evaluate(() => window.sessauth.fetch('/me').then((response) => response.status))).toBe(200);
      expect((await context.cookies()).find((cookie) => cookie.name === 'refresh_token')?.expires).toBe(-1);
      expect(await cspViolationsOf(page)).toEqual([]);
      expect(page.errors).toEqual([]);
      await context.close();
    });

    it('on a phone (390 px wide) nothing overflows the screen, signed out or signed in', async () => {
      const context = await newDevice(chromium, LONDON);
      const page = await openDemo(context, server.origin);
      await page.setViewportSize({ width: 390, height: 844 });
      await signedOut(page);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBe(0);
      // "Remember me" and its checkbox on one line (the label's row is one line of text high).
      const remember = await page.locator('label:has(input[name=remember])').boundingBox();
      const checkbox = await page.locator('input[name=remember]').boundingBox();
      expect(remember!.height).toBeLessThan(40);
      expect(checkbox!.x).toBeGreaterThan(remember!.x + 100);
      await page.screenshot({ path: `${SCREENSHOTS}demo-${adapter}-390px-signed-out.png`, fullPage: true });

      await signIn(page, 'bob', 'bob-password');
      await page.waitForSelector('#sessions tr.current');
      expect(await overflow()).toBe(0);
      // Each session is a card of labelled lines; the sentence about the token reads as English.
      expect(
        await page
          .locator('#sessions tr.current td')
          .first()
          .evaluate((cell) => getComputedStyle(cell, '::before').content),
      ).toBe('"Device: "');
      expect(await page.textContent('#token-info')).toMatch(/^The access token is valid until .+\.$/);
      await page.screenshot({ path: `${SCREENSHOTS}demo-${adapter}-390px-signed-in.png`, fullPage: true });
      expect(page.errors).toEqual([]);
      await context.close();
    });

    it('a refresh whose response is lost signs every tab out (ambiguous) and is never retried', async () => {
      const context = await newDevice(chromium, LONDON);
      const page = await openDemo(context, server.origin);
      await signIn(page, 'bob', 'bob-password');
      const other = await openDemo(context, server.origin);
      await signedIn(other);
      const reachedServer: number[] = [];
      // The server gets the refresh and rotates the token; the browser never sees the answer.
      await context.route('**/auth/refresh/', async (route) => {
        reachedServer.push((await route.fetch()).status());
        await route.abort('connectionreset');
      });
      await waitForEvent(page, 'signed-out:ambiguous');
      await waitForEvent(other, 'signed-out:ambiguous');
      await signedOut(page);
      expect(await page.textContent('#message')).toContain('connection dropped');
      // Any later call stays signed out instead of presenting the old token again.
      expect(
        await other.evaluate(() =>
          window.sessauth.fetch('/me').then(
            () => 'sent',
            (e: { code: string }) => e.code,
          ),
        ),
      ).toBe('signed_out');
      await sleep(2_500); // longer than a token's life: time enough for a wrongful retry
      expect(reachedServer).toEqual([200]);
      expect(server.logEvents('token_reuse_detected')).toEqual([]);
      expect([...page.errors, ...other.errors]).toEqual([]);
      await context.close();
    });
  });
}
