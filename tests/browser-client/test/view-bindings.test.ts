import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startExample, type ExampleServer } from '@sessauth/browser-support';

// `useSession()` of @sessauth/client/react and @sessauth/client/vue (issue 27, point 11): a page per
// framework, bundled with esbuild (the bundler under tsup, which builds the client) from the
// client's built package, served on the example's own origin, driven in Chromium.

declare global {
  interface Window {
    sessauthClient: { login(credentials: Record<string, unknown>): Promise<void>; logout(): Promise<void>; restore(): Promise<boolean> };
  }
}

const PAGES = { react: 'react-page.mjs', vue: 'vue-page.mjs' } as const;
const bundles = new Map<keyof typeof PAGES, string>();
let browser: Browser | null = null;
let server: ExampleServer;

async function bundle(file: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./support/view-pages/${file}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
    // What a production build of each framework defines.
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  });
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  browser = await launchChromium();
  if (browser === null) return;
  for (const [name, file] of Object.entries(PAGES)) bundles.set(name as keyof typeof PAGES, await bundle(file));
  server = await startExample('express', { env: { JWT_REFRESH_TOKEN_TRANSPORT: 'cookie' } });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPage(name: keyof typeof PAGES): Promise<Page> {
  const context = await browser!.newContext();
  await context.route(`${server.origin}/__view-${name}__.html`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><div id="root"></div><script type="module" src="/__view-${name}__.js"></script></body></html>`,
    }),
  );
  await context.route(`${server.origin}/__view-${name}__.js`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: bundles.get(name)! }),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${server.origin}/__view-${name}__.html`);
  await page.waitForSelector('#session').catch(() => {
    throw new Error(`the ${name} page did not render: ${errors.join('; ')}`);
  });
  return page;
}

const shown = (page: Page) => page.textContent('#session');
/** Both components of the page show `text` (a prefix when it ends in a space). */
const bothShow = (page: Page, text: string) =>
  page.waitForFunction(
    (expected) =>
      ['session', 'session-badge'].every((id) => {
        const value = document.getElementById(id)?.textContent ?? '';
        return expected.endsWith(' ') ? value.startsWith(expected) : value === expected;
      }),
    text,
  );

describe.each(Object.keys(PAGES) as (keyof typeof PAGES)[])('useSession() of @sessauth/client/%s in Chromium', (name) => {
  it('starts unknown; sign in updates the value with the session id; sign out clears it; restore() signs back in', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed (named in the skip line above)');
    const page = await openPage(name);
    expect(await shown(page)).toBe('unknown -');

    await page.evaluate(() => window.sessauthClient.login({ username: 'alice', password: 'alice-password' }));
    await page.waitForFunction(() => document.getElementById('session')?.textContent?.startsWith('signed-in '));
    const sessionId = (await shown(page))!.split(' ')[1]!;
    expect(sessionId).toMatch(/^[\w-]{8,}$/);
    // The second component on the same client follows too, not only the first to subscribe.
    await bothShow(page, `signed-in ${sessionId}`);

    await page.evaluate(() => window.sessauthClient.logout());
    await bothShow(page, 'signed-out -');

    // A second sign-in, and a reload that restores from the refresh cookie: the hook follows each.
    await page.evaluate(() => window.sessauthClient.login({ username: 'alice', password: 'alice-password' }));
    await page.waitForFunction(() => document.getElementById('session')?.textContent?.startsWith('signed-in '));
    await page.reload();
    expect(await shown(page)).toBe('unknown -');
    expect(await page.evaluate(() => window.sessauthClient.restore())).toBe(true);
    await bothShow(page, 'signed-in ');
    await page.context().close();
  });
});
