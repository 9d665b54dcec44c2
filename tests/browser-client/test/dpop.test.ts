import { createHash, webcrypto } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startExample, type ExampleServer } from '@sessauth/browser-support';
import { eventsOf, newDevice, sleep } from './support/demo-page.js';
import { DPOP_DATABASE, DPOP_PAGE_PATH, dpopPageHtml } from './support/dpop-page.js';
import { CLIENT_EXAMPLE_ENV } from './support/example-env.js';

// Issue 22, point 2: `@sessauth/client` with `dpop: true` in headless Chromium, against the express
// example with JWT_DPOP=required on the memory store (SESSAUTH_DPOP_STORE picks another). The
// attacker below is written from RFC 9449 (s4.2, s7.1) with Node's WebCrypto, not from the server's code.

declare global {
  interface Window {
    /** The name of the client's IndexedDB key record (see support/dpop-page.ts). */
    keyName: string;
    ready: boolean;
  }
}

const LONDON = '81.2.69.142';
// The store of the example servers (and of their jti records): memory by default; e.g. `sqlite::memory:`.
const STORE = process.env.SESSAUTH_DPOP_STORE ?? 'memory:';
const DPOP_ENV = { ...CLIENT_EXAMPLE_ENV, JWT_DPOP: 'required', SESSAUTH_STORE: STORE };

let browser: Browser | null = null;
let cookieServer: ExampleServer;
let bodyServer: ExampleServer;

beforeAll(async () => {
  browser = await launchChromium();
  if (browser === null) return;
  [cookieServer, bodyServer] = await Promise.all([
    startExample('express', { env: DPOP_ENV }),
    startExample('express', { env: { ...DPOP_ENV, JWT_REFRESH_TOKEN_TRANSPORT: 'body' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([cookieServer?.stop(), bodyServer?.stop()]);
  await browser?.close();
});

/** A device (its own cookie jar and IndexedDB) that serves the DPoP page on the example's origin. */
async function device(origin: string): Promise<BrowserContext> {
  const context = await newDevice(browser!, LONDON);
  await context.route(
    (url) => url.origin === origin && url.pathname === DPOP_PAGE_PATH,
    (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: dpopPageHtml() }),
  );
  return context;
}

async function openPage(context: BrowserContext, origin: string, transport: 'cookie' | 'body' = 'cookie'): Promise<Page & { errors: string[] }> {
  const page = Object.assign(await context.newPage(), { errors: [] as string[] });
  page.on('pageerror', (error) => page.errors.push(error.message));
  await page.goto(`${origin}${DPOP_PAGE_PATH}?transport=${transport}`);
  await page.waitForFunction(() => window.ready === true);
  return page;
}

function login(page: Page, username: string, password: string): Promise<void> {
  return page.evaluate(([u, p]) => window.sessauth.login({ username: u, password: p }), [username, password] as const);
}

const fetchStatus = (page: Page, path: string): Promise<number> => page.evaluate((p) => window.sessauth.fetch(p).then((r) => r.status), path);

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A JWS's protected header and payload. */
function jws(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.');
  return { header: decodePart(header!), payload: decodePart(payload!) };
}

/** RFC 7638 s3.2: the SHA-256 of the required members of an EC key, in order, no whitespace. */
function thumbprint(jwk: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');
}

/** The page's stored key record, read by page script as an XSS would. */
function storedKey(page: Page): Promise<{ jkt: string; extractable: boolean } | null> {
  return page.evaluate(async (database) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(database);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const record = await new Promise<{ jkt: string; privateKey: CryptoKey } | undefined>((resolve, reject) => {
      const get = db.transaction('keys').objectStore('keys').get(window.keyName);
      get.onsuccess = () => resolve(get.result as { jkt: string; privateKey: CryptoKey } | undefined);
      get.onerror = () => reject(get.error);
    });
    db.close();
    return record === undefined ? null : { jkt: record.jkt, extractable: record.privateKey.extractable };
  }, DPOP_DATABASE);
}

/** An attacker's own key and proofs, from RFC 9449 s4.2 (it cannot have the victim's key). */
async function attackerKey(): Promise<(method: string, url: string, accessToken?: string) => Promise<string>> {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const { kty, crv, x, y } = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
  return async (method, url, accessToken) => {
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } };
    const claims = {
      jti: webcrypto.randomUUID(),
      htm: method,
      htu: url,
      iat: Math.floor(Date.now() / 1000),
      ...(accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') }),
    };
    const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, Buffer.from(input));
    return `${input}.${Buffer.from(signature).toString('base64url')}`;
  };
}

describe(`@sessauth/client with dpop: true (JWT_DPOP=required, store ${STORE})`, () => {
  it('login, refresh and authedFetch carry proofs by one key; the answers say token_type DPoP; logout deletes the key', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = cookieServer.origin;
    const context = await device(origin);
    const sent: Promise<{ path: string; headers: Record<string, string> }>[] = [];
    const tokenTypes: Promise<{ path: string; status: number; tokenType: unknown }>[] = [];
    context.on('request', (request) => sent.push(request.allHeaders().then((headers) => ({ path: new URL(request.url()).pathname, headers }))));
    context.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path === '/auth/login/' || path === '/auth/refresh/') {
        tokenTypes.push(response.json().then((body: { token_type?: unknown }) => ({ path, status: response.status(), tokenType: body.token_type })));
      }
    });
    const page = await openPage(context, origin);
    await login(page, 'alice', 'alice-password');
    await sleep(2_500); // past the 2-second access token: the next request refreshes first
    expect(await fetchStatus(page, '/me?probe=1#fragment')).toBe(200);
    const key = await storedKey(page);

    const requests = await Promise.all(sent);
    const loginRequest = requests.find((r) => r.path === '/auth/login/')!;
    const loginProof = jws(loginRequest.headers.dpop!);
    expect(loginProof.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(Object.keys(loginProof.header.jwk as object).sort()).toEqual(['crv', 'kty', 'x', 'y']); // no private member
    expect(loginProof.payload).toMatchObject({ htm: 'POST', htu: `${origin}/auth/login/` });
    expect(loginProof.payload.ath).toBeUndefined();
    const jkt = thumbprint(loginProof.header.jwk as Record<string, unknown>);
    expect(key).toEqual({ jkt, extractable: false });

    const refreshRequest = requests.find((r) => r.path === '/auth/refresh/')!;
    const refreshProof = jws(refreshRequest.headers.dpop!);
    expect(thumbprint(refreshProof.header.jwk as Record<string, unknown>)).toBe(jkt);
    expect(refreshProof.payload).toMatchObject({ htm: 'POST', htu: `${origin}/auth/refresh/` });

    const me = requests.filter((r) => r.path === '/me').at(-1)!;
    const [scheme, accessToken] = me.headers.authorization!.split(' ');
    expect(scheme).toBe('DPoP');
    expect(jws(accessToken!).payload.cnf).toEqual({ jkt });
    const meProof = jws(me.headers.dpop!);
    expect(meProof.payload).toMatchObject({ htm: 'GET', htu: `${origin}/me`, ath: createHash('sha256').update(accessToken!).digest('base64url') });
    // Every proof is new (the server refuses a jti it has seen).
    const jtis = requests.filter((r) => r.headers.dpop !== undefined).map((r) => jws(r.headers.dpop!).payload.jti);
    expect(new Set(jtis).size).toBe(jtis.length);

    const answers = await Promise.all(tokenTypes);
    expect(answers.filter((a) => a.status === 200).map((a) => `${a.path} ${String(a.tokenType)}`)).toEqual([
      '/auth/login/ DPoP',
      '/auth/refresh/ DPoP',
    ]);

    // Signing out deletes the key; the next sign-in makes a new one (no key links two sign-ins).
    await page.evaluate(() => window.sessauth.logout());
    expect(await storedKey(page)).toBeNull();
    await login(page, 'alice', 'alice-password');
    const next = await storedKey(page);
    expect(next?.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next?.jkt).not.toBe(jkt);
    expect(await fetchStatus(page, '/me')).toBe(200);
    expect(page.errors).toEqual([]);
    await context.close();
  });

  it('four tabs, ten requests each at once, across several expiries: all succeed, one key, no reuse', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = cookieServer.origin;
    const context = await device(origin);
    const first = await openPage(context, origin);
    await login(first, 'bob', 'bob-password');
    const refreshStatuses: number[] = [];
    const proofKeys = new Set<string>();
    context.on('request', (request) => {
      const proof = request.headers().dpop;
      if (proof !== undefined) proofKeys.add(thumbprint(jws(proof).header.jwk as Record<string, unknown>));
    });
    context.on('response', (response) => {
      if (response.url().endsWith('/auth/refresh/')) refreshStatuses.push(response.status());
    });
    // Tabs opened later adopt the first tab's token, and sign with the key it left in IndexedDB.
    const tabs = [first, ...(await Promise.all([1, 2, 3].map(() => openPage(context, origin))))];
    await Promise.all(tabs.slice(1).map((tab) => tab.evaluate(() => window.sessauth.restore())));

    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const burst = await Promise.all(
        tabs.map((tab) => tab.evaluate(() => Promise.all(Array.from({ length: 10 }, () => window.sessauth.fetch('/me').then((r) => r.status))))),
      );
      statuses.push(...burst.flat());
      await sleep(700);
    }
    const events = (await Promise.all(tabs.map(eventsOf))).flat();
    await context.close();
    console.log(`[dpop] ${statuses.length} requests, ${refreshStatuses.length} refreshes, ${proofKeys.size} key(s)`);

    expect(statuses).toHaveLength(8 * 4 * 10);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(refreshStatuses.length).toBeGreaterThanOrEqual(3);
    expect(refreshStatuses.filter((status) => status !== 200)).toEqual([]);
    expect(events.filter((e) => e === 'refreshed:other-tab').length).toBeGreaterThanOrEqual(refreshStatuses.length);
    expect(events.filter((e) => e.startsWith('signed-out'))).toEqual([]);
    expect(proofKeys.size).toBe(1);
    expect(cookieServer.logEvents('token_reuse_detected')).toEqual([]);
    expect(cookieServer.logEvents('dpop_refused')).toEqual([]);
    expect(tabs.flatMap((tab) => tab.errors)).toEqual([]);
  });

  it('two tabs that sign in at once with no key yet: one key is stored and both sessions are bound to it', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = bodyServer.origin;
    const context = await device(origin);
    // Body transport: no cross-tab lock, so the two logins (and their key creations) really overlap.
    const [a, b] = await Promise.all([openPage(context, origin, 'body'), openPage(context, origin, 'body')]);
    await Promise.all([login(a, 'alice', 'alice-password'), login(b, 'bob', 'bob-password')]);
    const bound = await Promise.all(
      [a, b].map(async (tab) => jws(await tab.evaluate(() => window.sessauth.accessToken())).payload.cnf as { jkt: string }),
    );
    const stored = await storedKey(a);
    expect(bound).toEqual([{ jkt: stored!.jkt }, { jkt: stored!.jkt }]);
    expect([await fetchStatus(a, '/me'), await fetchStatus(b, '/me')]).toEqual([200, 200]);
    await context.close();
  });

  it("page script cannot export the key's private part (InvalidAccessError), nor wrap it", async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = cookieServer.origin;
    const context = await device(origin);
    const page = await openPage(context, origin);
    await login(page, 'alice', 'alice-password');
    // What an XSS payload would try: read the CryptoKey out of IndexedDB and export it.
    const attempt = await page.evaluate(async (database) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const record = await new Promise<{ privateKey: CryptoKey }>((resolve, reject) => {
        const get = db.transaction('keys').objectStore('keys').get(window.keyName);
        get.onsuccess = () => resolve(get.result as { privateKey: CryptoKey });
        get.onerror = () => reject(get.error);
      });
      const outcome = (promise: Promise<unknown>) =>
        promise.then(
          () => 'exported',
          (error: DOMException) => error.name,
        );
      const wrapping = await crypto.subtle.generateKey({ name: 'AES-KW', length: 256 }, false, ['wrapKey']);
      return {
        type: record.privateKey.type,
        extractable: record.privateKey.extractable,
        usages: record.privateKey.usages,
        jwk: await outcome(crypto.subtle.exportKey('jwk', record.privateKey)),
        pkcs8: await outcome(crypto.subtle.exportKey('pkcs8', record.privateKey)),
        wrapped: await outcome(crypto.subtle.wrapKey('pkcs8', record.privateKey, wrapping, 'AES-KW')),
        // It can still sign: a script on the page can use the key while the page is open (see the threat model).
        signs: (await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, record.privateKey, new Uint8Array([1]))).byteLength,
      };
    }, DPOP_DATABASE);
    expect(attempt).toEqual({
      type: 'private',
      extractable: false,
      usages: ['sign'],
      jwk: 'InvalidAccessError',
      pkcs8: 'InvalidAccessError',
      wrapped: 'InvalidAccessError',
      signs: 64,
    });
    expect(page.errors).toEqual([]);
    await context.close();
  });

  it("tokens lifted from the page are useless elsewhere, and the owner's session lives on (body transport)", async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = bodyServer.origin;
    const owner = await device(origin);
    const page = await openPage(owner, origin, 'body');
    await login(page, 'alice', 'alice-password');
    // What an XSS reads: the refresh token in sessionStorage, the access token from the client.
    const loot = await page.evaluate(async () => ({
      refreshToken: sessionStorage.getItem('refresh_token')!,
      accessToken: await window.sessauth.accessToken(),
    }));
    expect(jws(loot.refreshToken).payload.cnf).toEqual(jws(loot.accessToken).payload.cnf);

    // A plain client from RFC 9449, with a key of its own (it cannot have the page's).
    const proof = await attackerKey();
    const refresh = async (dpop?: string) => {
      const response = await fetch(`${origin}/auth/refresh/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(dpop === undefined ? {} : { dpop }) },
        body: JSON.stringify({ refresh_token: loot.refreshToken }),
      });
      return `${response.status} ${((await response.json()) as { error_code?: string }).error_code}`;
    };
    const me = async (authorization: string, dpop?: string) =>
      (await fetch(`${origin}/me`, { headers: { authorization, ...(dpop === undefined ? {} : { dpop }) } })).status;
    expect(await refresh()).toBe('401 invalid_dpop_proof');
    expect(await refresh(await proof('POST', `${origin}/auth/refresh/`))).toBe('401 invalid_dpop_proof');
    expect(await me(`Bearer ${loot.accessToken}`)).toBe(401);
    expect(await me(`DPoP ${loot.accessToken}`)).toBe(401);
    expect(await me(`DPoP ${loot.accessToken}`, await proof('GET', `${origin}/me`, loot.accessToken))).toBe(401);

    // Another browser context (the attacker's browser, same client, same page): no key there.
    const thief = await device(origin);
    const stolen = await openPage(thief, origin, 'body');
    await stolen.evaluate((token) => sessionStorage.setItem('refresh_token', token), loot.refreshToken);
    const refreshAnswers: number[] = [];
    thief.on('response', (response) => response.url().endsWith('/auth/refresh/') && refreshAnswers.push(response.status()));
    expect(await stolen.evaluate(() => window.sessauth.restore())).toBe(false);
    expect(refreshAnswers).toEqual([401]);
    await thief.close();

    // The owner refreshes with the very token the thief held, and goes on.
    await page.evaluate(() => window.sessauth.refresh());
    expect(await fetchStatus(page, '/me')).toBe(200);
    expect((await eventsOf(page)).filter((e) => e.startsWith('signed-out'))).toEqual([]);
    expect(bodyServer.logEvents('token_reuse_detected')).toEqual([]);
    expect(page.errors).toEqual([]);
    await owner.close();
  });

  it('the refresh cookie and access token copied into another browser context are useless there (cookie transport)', async (test) => {
    if (browser === null) return test.skip('Chromium is not installed');
    const origin = cookieServer.origin;
    const owner = await device(origin);
    const page = await openPage(owner, origin);
    await login(page, 'carol', 'carol-password');
    const accessToken = await page.evaluate(() => window.sessauth.accessToken());
    // Malware with the cookie jar takes every cookie (the HttpOnly refresh cookie too) into its own browser.
    const thief = await device(origin);
    await thief.addCookies(await owner.cookies());
    const stolen = await openPage(thief, origin);
    const refreshAnswers: number[] = [];
    thief.on('response', (response) => response.url().endsWith('/auth/refresh/') && refreshAnswers.push(response.status()));
    expect(await stolen.evaluate(() => window.sessauth.restore())).toBe(false);
    expect(refreshAnswers).toEqual([401]);
    const replayed = await stolen.evaluate(
      (token) => fetch('/me', { headers: { authorization: `DPoP ${token}` } }).then((r) => r.status),
      accessToken,
    );
    expect(replayed).toBe(401);
    await thief.close();

    await page.evaluate(() => window.sessauth.refresh());
    expect(await fetchStatus(page, '/me')).toBe(200);
    expect((await eventsOf(page)).filter((e) => e.startsWith('signed-out'))).toEqual([]);
    expect(cookieServer.logEvents('token_reuse_detected')).toEqual([]);
    await owner.close();
  });
});
