import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { expectError, expectNoStore } from './expectations.js';
import type { HttpClient, HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** Throttled apps trust the loopback proxy so each test counts under its own random client address. */
const THROTTLED = { trustedProxyCidrs: ['127.0.0.1/32'] };

const random = (below: number) => crypto.getRandomValues(new Uint32Array(1))[0]! % below;

/** A random address in 198.18.0.0/15 (benchmarking), fresh for every test even on a shared counter store. */
function randomIpv4(app: TestApp): string {
  const ip = `198.${18 + random(2)}.${random(256)}.${1 + random(254)}`;
  app.secrets.add(ip);
  return ip;
}

/** A random /64 inside 2001:db8::/32 (documentation). */
function randomIpv6Prefix(app: TestApp): string {
  const prefix = `2001:db8:${random(0x10000).toString(16)}:${random(0x10000).toString(16)}`;
  app.secrets.add(prefix);
  return prefix;
}

function login(app: TestApp, ip: string, options: { password?: string; client?: HttpClient; csrf?: boolean } = {}): Promise<HttpResult> {
  const client = options.client ?? app.client();
  return client.post(app.at('/login/'), {
    json: { username: 'alice', password: options.password ?? app.users.passwords.alice },
    headers: { 'x-forwarded-for': ip },
    csrf: options.csrf ?? false,
  });
}

function expectRateLimited(result: HttpResult, windowSec: number): void {
  expectError(result, 429, 'rate_limited');
  expectNoStore(result, '429');
  const retryAfter = result.headers.get('retry-after') ?? '';
  expect(retryAfter, 'Retry-After is whole seconds').toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSec);
}

/** Login and refresh throttles, and the order of the pre-checks. */
export function throttleSuite(kit: SuiteKit): void {
  kit.test('throttle/login', 'over the login rate: 429 rate_limited with Retry-After, per client address', async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '2/min' });
    const ip = randomIpv4(app);
    expect((await login(app, ip)).status).toBe(200);
    expect((await login(app, ip)).status).toBe(200);
    expectRateLimited(await login(app, ip), 60);
    // The operator sees the refusal: one warn line with the bucket kind (the leak check below rules out the address).
    const refusals = app.logger.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'rate_limited');
    expect(refusals).toEqual([expect.objectContaining({ level: 'warn', scope: 'login', limit: 2, window_sec: 60 })]);
    let other = randomIpv4(app);
    while (other === ip) other = randomIpv4(app);
    const elsewhere = await login(app, other);
    expect(elsewhere.status, elsewhere.text).toBe(200);
  });

  kit.test('throttle/login-failures', 'failed logins spend the login budget too', async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '2/min' });
    const ip = randomIpv4(app);
    expectError(await login(app, ip, { password: 'wrong-1' }), 401, 'invalid_credentials');
    expectError(await login(app, ip, { password: 'wrong-2' }), 401, 'invalid_credentials');
    expectRateLimited(await login(app, ip), 60);
  });

  kit.test('throttle/refresh-before-decode', 'over the refresh rate a garbage token gets 429, not 401', async () => {
    const app = await kit.start({ ...THROTTLED, refreshThrottleRate: '2/hour' });
    const ip = randomIpv4(app);
    const client = app.client();
    const garbage = () => client.post(app.at('/refresh/'), { json: { refresh_token: 'garbage' }, headers: { 'x-forwarded-for': ip } });
    expectError(await garbage(), 401, 'invalid_token');
    expectError(await garbage(), 401, 'invalid_token');
    expectRateLimited(await garbage(), 3600);
  });

  kit.test('throttle/content-type-first', 'a 415 spends no login budget and comes before the 429', async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '2/min' });
    const ip = randomIpv4(app);
    const client = app.client();
    const plain = () => client.post(app.at('/login/'), { body: '{}', contentType: 'text/plain', headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i += 1) expectError(await plain(), 415, 'unsupported_media_type');
    expect((await login(app, ip)).status).toBe(200);
    expect((await login(app, ip)).status).toBe(200);
    expectError(await plain(), 415, 'unsupported_media_type');
    expectRateLimited(await login(app, ip), 60);
  });

  kit.test('throttle/csrf-first', 'a CSRF failure spends no login budget and comes before the 429', async () => {
    const app = await kit.start({ ...THROTTLED, refreshTokenTransport: 'cookie', loginThrottleRate: '2/min' });
    const ip = randomIpv4(app);
    const client = app.client();
    await client.fetchCsrf(app.prefix);
    for (let i = 0; i < 3; i += 1) expectError(await login(app, ip, { client }), 403, 'csrf_failed');
    for (let i = 0; i < 2; i += 1) {
      const ok = await login(app, ip, { client, csrf: true });
      expect(ok.status, ok.text).toBe(200);
      await client.fetchCsrf(app.prefix); // the secret rotated at login
    }
    expectError(await login(app, ip, { client }), 403, 'csrf_failed');
    expectRateLimited(await login(app, ip, { client, csrf: true }), 60);
  });

  kit.test('throttle/ipv6-prefix', 'IPv6 clients are counted per /64', async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '2/min' });
    const prefix = randomIpv6Prefix(app);
    expect((await login(app, `${prefix}::1`)).status).toBe(200);
    expect((await login(app, `${prefix}:ffff:ffff:ffff:ffff`)).status).toBe(200);
    expectRateLimited(await login(app, `${prefix}::2`), 60);
    const otherPrefix = randomIpv6Prefix(app);
    expect((await login(app, `${otherPrefix}::1`)).status).toBe(200);
  });

  kit.test('throttle/login-account', 'over the per-account rate: 429 for that username from any address, the same for an unknown one', async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '100/min', loginAccountThrottleRate: '2/min' });
    const attempt = (username: string, password: string, ip: string) =>
      app.client().post(app.at('/login/'), { json: { username, password }, headers: { 'x-forwarded-for': ip } });
    expectError(await attempt('alice', 'wrong-1', randomIpv4(app)), 401, 'invalid_credentials');
    const ok = await attempt('alice', app.users.passwords.alice, randomIpv4(app));
    expect(ok.status, ok.text).toBe(200);
    // A third address, the right password: the account's budget is spent.
    expectRateLimited(await attempt('alice', app.users.passwords.alice, randomIpv4(app)), 60);
    // The same name in another case or with spaces is the same account.
    expectRateLimited(await attempt(' ALICE ', app.users.passwords.alice, randomIpv4(app)), 60);
    // Another account keeps its budget, from an address that just hit the limit.
    const bob = await attempt('bob', app.users.passwords.bob, randomIpv4(app));
    expect(bob.status, bob.text).toBe(200);
    // An unknown username answers exactly as an existing one: 401, 401, then 429.
    const unknown = `nobody-${random(1_000_000)}`;
    expectError(await attempt(unknown, 'wrong-1', randomIpv4(app)), 401, 'invalid_credentials');
    expectError(await attempt(unknown, 'wrong-2', randomIpv4(app)), 401, 'invalid_credentials');
    expectRateLimited(await attempt(unknown, 'wrong-3', randomIpv4(app)), 60);
  });

  kit.test(
    'throttle/login-account-resolved',
    'the per-account budget follows the account the lookup resolves: a spelling the host folds together (álice for alice) gets no fresh budget',
    async () => {
      // A lookup like `WHERE username = ?` under an accent- and case-insensitive SQL collation.
      const fold = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      const app = await kit.start(
        { ...THROTTLED, loginThrottleRate: '100/min', loginAccountThrottleRate: '3/hour' },
        { wrapUsers: (users) => ({ ...users, findByUsername: (name) => users.findByUsername!(fold(name)) }) },
      );
      const attempt = (username: string, password: string) =>
        app.client().post(app.at('/login/'), { json: { username, password }, headers: { 'x-forwarded-for': randomIpv4(app) } });
      // The lookup resolves every spelling to alice: the right password logs in under any of them.
      const folded = await attempt('ÁLICE', app.users.passwords.alice);
      expect(folded.status, folded.text).toBe(200);
      for (const wrong of ['wrong-1', 'wrong-2']) expectError(await attempt('alice', wrong), 401, 'invalid_credentials');
      // alice's budget (3/hour) is spent; each new spelling has a fresh name budget but not a fresh account.
      for (const spelling of ['álice', 'àlice', 'ALICÉ', 'alïce']) expectRateLimited(await attempt(spelling, app.users.passwords.alice), 3600);
      // An unknown name still answers 401 until its own budget is spent, then the same 429.
      for (let i = 0; i < 3; i += 1) expectError(await attempt('nobody-here', 'x'), 401, 'invalid_credentials');
      expectRateLimited(await attempt('nobody-here', 'x'), 3600);
    },
  );

  kit.test(
    'throttle/login-network',
    'the per-network login budget: an IPv4 /24 and an IPv6 /48 share one budget, other networks are not touched',
    async () => {
      const app = await kit.start({ ...THROTTLED, loginThrottleRate: '100/min', loginNetworkThrottleRate: '2/min' });
      const third = random(256);
      const net4 = (host: number) => `198.18.${third}.${host}`;
      const net6 = (site: number) => `2001:db8:${random(0x10000).toString(16)}:${site.toString(16)}::1`;
      for (const ip of [net4(1), net4(2), net4(3)]) app.secrets.add(ip);
      expect((await login(app, net4(1))).status).toBe(200);
      expect((await login(app, net4(2))).status).toBe(200);
      expectRateLimited(await login(app, net4(3)), 60);
      // Another /24 for certain (a random address was in this one once in 512 runs).
      const elsewhere = `198.${18 + random(2)}.${(third + 1 + random(255)) % 256}.${1 + random(254)}`;
      app.secrets.add(elsewhere);
      expect((await login(app, elsewhere)).status, 'another network').toBe(200);
      const v6 = net6(1).split(':').slice(0, 3).join(':');
      const inSite = (subnet: number) => {
        const ip = `${v6}:${subnet.toString(16)}::1`;
        app.secrets.add(ip);
        return ip;
      };
      expect((await login(app, inSite(1))).status).toBe(200);
      expect((await login(app, inSite(2))).status).toBe(200);
      // A third /64 of the same /48: the network's budget, not the address's.
      expectRateLimited(await login(app, inSite(3)), 60);
    },
  );

  kit.test('throttle/off', "rate '0' disables the throttle", async () => {
    const app = await kit.start({ ...THROTTLED, loginThrottleRate: '0' });
    const ip = randomIpv4(app);
    for (let i = 0; i < 4; i += 1) expectError(await login(app, ip, { password: 'wrong' }), 401, 'invalid_credentials');
  });
}
