import type { SessauthClient } from '@sessauth/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';

declare global {
  interface Window {
    /** The demo page's client (it assigns `window.sessauth`). */
    sessauth: SessauthClient;
    /** Every event of that client, as `signed-out:revoked`, `refreshed:other-tab`, ... */
    __events: string[];
    /** Every Content-Security-Policy violation of the page: "<directive> <blocked URI>". */
    __cspViolations: string[];
  }
}

/**
 * A device: one browser context (its own cookie jar, its own tabs), optionally with its own
 * browser (User-Agent) and screen. `ip` is sent as
 * X-Forwarded-For, which the test server trusts from loopback, so each device has a
 * public address (and a place) in the session list.
 */
export async function newDevice(
  browser: Browser,
  ip: string,
  device: { userAgent?: string; viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': ip },
    viewport: device.viewport ?? { width: 960, height: 640 },
    ...(device.userAgent === undefined ? {} : { userAgent: device.userAgent }),
  });
  // Records the page client's events from the moment the page creates it.
  await context.addInitScript(() => {
    const violations: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: violations });
    document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const events: string[] = [];
    let client: SessauthClient | undefined;
    Object.defineProperty(window, '__events', { value: events });
    Object.defineProperty(window, 'sessauth', {
      configurable: true,
      get: () => client,
      set: (value: SessauthClient) => {
        client = value;
        value.on('signed-in', (e) => events.push(`signed-in:${e.via}`));
        value.on('refreshed', (e) => events.push(`refreshed:${e.source}`));
        value.on('signed-out', (e) => events.push(`signed-out:${e.reason}`));
      },
    });
  });
  return context;
}

/** What went wrong in a page, for failure messages. */
const troubles = new WeakMap<Page, string[]>();

/** A tab on the demo page; uncaught errors of the page are collected in `errors`. */
export async function openDemo(context: BrowserContext, baseUrl: string): Promise<Page & { errors: string[] }> {
  const page = Object.assign(await context.newPage(), { errors: [] as string[] });
  const seen: string[] = [];
  troubles.set(page, seen);
  page.on('pageerror', (error) => {
    page.errors.push(error.message);
    seen.push(`pageerror ${error.message}`);
  });
  page.on('console', (message) => message.type() === 'error' && seen.push(`console ${message.text()}`));
  page.on('requestfailed', (request) => seen.push(`failed ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  await page.goto(`${baseUrl}/`);
  return page;
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await signedOut(page);
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('#sign-in button');
  await signedIn(page);
}

export function signedIn(page: Page): Promise<void> {
  return shown(page, '#account');
}

export function signedOut(page: Page): Promise<void> {
  return shown(page, '#sign-in');
}

/** Waits for a section of the page; on failure says what the page showed and what the client did. */
async function shown(page: Page, selector: string): Promise<void> {
  try {
    await page.waitForSelector(`${selector}:not([hidden])`, { timeout: 15_000 });
  } catch (error) {
    const message = await page.textContent('#message').catch(() => null);
    const events = await eventsOf(page).catch(() => []);
    const seen = (troubles.get(page) ?? []).join(' | ');
    throw new Error(`${selector} not shown (message: ${JSON.stringify(message)}; events: ${events.join(', ')}; ${seen})`, { cause: error });
  }
}

export function cspViolationsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => [...window.__cspViolations]);
}

/** Fills and submits the demo page's password form. */
export async function changePassword(page: Page, current: string, next: string): Promise<void> {
  await page.fill('#change-password input[name=current_password]', current);
  await page.fill('#change-password input[name=new_password]', next);
  await page.click('#change-password button');
}

/** Waits until the page's status line reads `text`. */
export async function waitForMessage(page: Page, text: string): Promise<void> {
  await page.waitForFunction((wanted) => document.getElementById('message')?.textContent === wanted, text, { timeout: 15_000 });
}

export function eventsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => [...window.__events]);
}

export async function waitForEvent(page: Page, event: string): Promise<void> {
  await page.waitForFunction((wanted) => window.__events.includes(wanted), event, { timeout: 15_000 });
}

/** The rows of "Where you're signed in": [browser cell, IP, location], with whether it is this device. */
export function sessionRows(page: Page): Promise<{ browser: string; ip: string; place: string; current: boolean }[]> {
  return page.$$eval('#sessions tr', (rows) =>
    rows.map((row) => ({
      browser: (row as HTMLTableRowElement).cells[0]!.textContent ?? '',
      ip: (row as HTMLTableRowElement).cells[1]!.textContent ?? '',
      place: (row as HTMLTableRowElement).cells[2]!.textContent ?? '',
      current: row.classList.contains('current'),
    })),
  );
}

/**
 * The device's next request: what the reload button does, unless its silent
 * refresh (also a request) already found the session gone and hid the list.
 */
export async function nextRequest(page: Page): Promise<void> {
  await page.evaluate(() =>
    window.sessauth.status === 'signed-in'
      ? window.sessauth.listSessions().then(
          () => undefined,
          () => undefined,
        )
      : undefined,
  );
}

export async function waitForRows(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('#sessions tr').length === n, count, { timeout: 15_000 });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
