import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import {
  type DbscKey,
  dbscHeaders,
  hmacDbscProof,
  makeDbscKey,
  parseChallenges,
  parseRegistration,
  type RegistrationEntry,
  type SessionInstructions,
  signDbscProof,
  unsignedDbscProof,
} from './dbsc-client.js';
import { expectError } from './expectations.js';
import type { HttpClient, HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

const ON = { refreshTokenTransport: 'cookie', deviceBoundCookies: true } as const;
const BOUND_COOKIE = 'refresh_token_bound';

// One key per role for the whole run.
let keys: Promise<{ browser: DbscKey; thief: DbscKey; rsa: DbscKey }> | undefined;
const keysOnce = () =>
  (keys ??= (async () => ({ browser: await makeDbscKey('ES256'), thief: await makeDbscKey('ES256'), rsa: await makeDbscKey('RS256') }))());

/** The login answer's registration entry a user agent would act on. */
function registrationOf(login: LoggedIn): RegistrationEntry {
  const [entry] = parseRegistration(login.result.headers.get('secure-session-registration'));
  if (entry === undefined) throw new Error(`no Secure-Session-Registration on the login answer: ${login.result.text}`);
  return entry;
}

/** "Process session registration" then "Send request" to the registration endpoint. */
async function register(from: HttpClient, entry: RegistrationEntry, key: DbscKey, challenge = entry.challenge): Promise<HttpResult> {
  const proof = await signDbscProof(key, challenge ?? '', { registration: true, authorization: entry.authorization });
  return from.post(entry.path, {
    headers: { ...dbscHeaders({ proof }), ...(entry.authorization === null ? {} : { authorization: entry.authorization }) },
  });
}

/** The challenge cached from an answer ("Cache challenge") for `sessionId`. */
function cachedChallenge(result: HttpResult, sessionId: string): string | undefined {
  return parseChallenges(result.headers.get('secure-session-challenge')).find((item) => item.id === sessionId)?.challenge;
}

/** "Send request" for a refresh: the cached challenge signed (if any); on 403, the new challenge signed, once. */
async function dbscRefresh(
  app: TestApp,
  from: HttpClient,
  sessionId: string,
  key: DbscKey,
  cached?: string,
): Promise<{ first: HttpResult; last: HttpResult }> {
  const url = app.at('/device-bound/refresh/');
  const sign = async (challenge: string | undefined) =>
    challenge === undefined ? undefined : await signDbscProof(key, challenge, { registration: false });
  const proof = await sign(cached);
  const first = await from.post(url, { headers: dbscHeaders({ sessionId, ...(proof === undefined ? {} : { proof }) }) });
  if (first.status !== 403) return { first, last: first };
  const retried = await sign(cachedChallenge(first, sessionId));
  const last = await from.post(url, { headers: dbscHeaders({ sessionId, ...(retried === undefined ? {} : { proof: retried }) }) });
  return { first, last };
}

/** A bound session: alice logged in and her browser registered `key`. */
async function boundLogin(app: TestApp, key: DbscKey): Promise<{ alice: LoggedIn; registered: HttpResult }> {
  const alice = await app.login('alice');
  const registered = await register(alice.client, registrationOf(alice), key);
  expect(registered.status, registered.text).toBe(200);
  return { alice, registered };
}

/** A thief's client holding copies of alice's refresh and CSRF cookies (what an infostealer takes), not her key. */
function thiefWith(app: TestApp, alice: LoggedIn, withBoundCookie: boolean): HttpClient {
  const thief = app.client();
  for (const name of ['refresh_token', 'csrftoken', ...(withBoundCookie ? [BOUND_COOKIE] : [])]) {
    const value = alice.client.jar.get(name);
    if (value !== undefined) thief.jar.set(name, value, name === 'csrftoken' ? '/' : app.at('/refresh/'));
  }
  return thief;
}

/** Device Bound Session Credentials (W3C DBSC draft, JWT_DEVICE_BOUND_COOKIES), attacked as a cookie thief would. */
export function deviceBoundSuite(kit: SuiteKit): void {
  kit.test('device-bound/off', 'off by default: no registration header, the DBSC endpoints are 404, refresh as before', async () => {
    const app = await kit.start({ refreshTokenTransport: 'cookie' });
    const alice = await app.login('alice');
    expect(alice.result.headers.get('secure-session-registration')).toBeNull();
    const { browser } = await keysOnce();
    const proof = await signDbscProof(browser, 'x', { registration: true });
    expectError(await alice.client.post(app.at('/device-bound/registration/'), { headers: dbscHeaders({ proof }) }), 404, 'not_found');
    expectError(
      await alice.client.post(app.at('/device-bound/refresh/'), { headers: dbscHeaders({ sessionId: alice.sessionId }) }),
      404,
      'not_found',
    );
    const refreshed = await app.refresh(alice.client);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.headers.get('secure-session-registration')).toBeNull();
  });

  kit.test(
    'device-bound/flow',
    'login invites, the browser registers its key, gets the session config and the bound cookie; the refresh challenge-response renews it',
    async () => {
      const app = await kit.start(ON);
      const { browser } = await keysOnce();
      const alice = await app.login('alice');
      const entry = registrationOf(alice);
      expect(entry.algorithms).toContain('ES256');
      expect(entry.path).toBe(app.at('/device-bound/registration/'));
      expect(entry.challenge).toEqual(expect.any(String));
      const registered = await register(alice.client, entry, browser);
      expect(registered.status, registered.text).toBe(200);
      const config = registered.body as SessionInstructions;
      expect(config.session_identifier).toBe(alice.sessionId);
      expect(config.continue ?? true).toBe(true);
      expect(config.scope?.include_site).toBe(false);
      expect(new URL(config.refresh_url ?? '', app.baseUrl).pathname).toBe(app.at('/device-bound/refresh/'));
      const [credential] = config.credentials ?? [];
      expect(credential?.type).toBe('cookie');
      expect(credential?.name).toBe(BOUND_COOKIE);
      // The bound cookie the answer sets has exactly the attributes the config names.
      const cookie = registered.setCookies.find((set) => set.name === BOUND_COOKIE);
      expect(cookie, registered.setCookies.map((set) => set.raw).join(' | ')).toBeDefined();
      expect(credential?.attributes).toContain(`Path=${cookie?.attributes.get('path')}`);
      expect(cookie?.attributes.has('httponly')).toBe(true);
      const next = cachedChallenge(registered, alice.sessionId);
      expect(next).toEqual(expect.any(String));

      // Bound: the ordinary refresh works beside the bound cookie, and does not invite again.
      const refreshed = await app.refresh(alice.client);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(refreshed.headers.get('secure-session-registration')).toBeNull();

      // The bound cookie expires (an access token's lifetime): the ordinary refresh is refused,
      // the session is not ended, and the DBSC refresh (signing the cached challenge) renews it.
      alice.client.jar.delete(BOUND_COOKIE);
      expectError(await app.refresh(alice.client), 401, 'invalid_device_bound_proof');
      const { first, last } = await dbscRefresh(app, alice.client, alice.sessionId, browser, next);
      expect(first.status, first.text).toBe(200);
      expect(last.text).toBe('');
      expect(last.setCookies.some((set) => set.name === BOUND_COOKIE && set.value !== '')).toBe(true);
      expect(cachedChallenge(last, alice.sessionId)).toEqual(expect.any(String));
      const again = await app.refresh(alice.client);
      expect(again.status, again.text).toBe(200);

      // Without a cached challenge the browser is sent one with a 403, signs it and retries.
      alice.client.jar.delete(BOUND_COOKIE);
      const challenged = await dbscRefresh(app, alice.client, alice.sessionId, browser);
      expectError(challenged.first, 403, 'device_bound_challenge');
      expect(challenged.last.status, challenged.last.text).toBe(200);
      expect((await app.refresh(alice.client)).status).toBe(200);

      // Logout clears the bound cookie with the refresh cookie.
      const logout = await alice.client.post(app.at('/logout/'), { json: {}, csrf: true, bearer: alice.access });
      expect(logout.status, logout.text).toBe(200);
      expect(logout.setCookies.some((set) => set.name === BOUND_COOKIE && set.attributes.get('max-age') === '0')).toBe(true);
      // An ended session's DBSC refresh is a 4xx: the browser ends its DBSC session too.
      expectError((await dbscRefresh(app, alice.client, alice.sessionId, browser)).last, 401, 'session_expired');
    },
  );

  kit.test(
    'device-bound/stolen-cookies',
    'cookies copied without the key: the refresh is refused without ending the owner session; the thief cannot register or refresh with its own key',
    async () => {
      const app = await kit.start(ON);
      const { browser, thief: thiefKey } = await keysOnce();
      const { alice, registered } = await boundLogin(app, browser);
      const loginEntry = registrationOf(alice);

      // The refresh and CSRF cookies, without the bound cookie (expired, or not worth taking).
      const thief = thiefWith(app, alice, false);
      expectError(await app.refresh(thief), 401, 'invalid_device_bound_proof');
      // Its own key: the session is bound to the browser's, so the DBSC refresh fails on the signature.
      const own = await dbscRefresh(app, thief, alice.sessionId, thiefKey, cachedChallenge(registered, alice.sessionId));
      expectError(own.last, 401, 'invalid_device_bound_proof');
      expect(own.last.setCookies.some((set) => set.name === BOUND_COOKIE)).toBe(false);
      // Re-registering with its own key, on the login answer's challenge (spent) or a new one it cannot get.
      expectError(await register(thief, loginEntry, thiefKey), 401, 'invalid_device_bound_proof');
      // Neither attempt ended the owner's session: her browser still refreshes.
      const owner = await app.refresh(alice.client);
      expect(owner.status, owner.text).toBe(200);

      // With a bound cookie copied too, it serves only until that cookie expires (an access token's lifetime).
      const late = thiefWith(app, alice, true);
      app.clock.advance(app.auth.options.accessTokenExpireSeconds + 1);
      expectError(await app.refresh(late), 401, 'invalid_device_bound_proof');
    },
  );

  kit.test('device-bound/hostile-proofs', 'wrong key, alg none, HMAC, wrong typ, a replayed or stale challenge: all refused', async () => {
    const app = await kit.start(ON);
    const { browser, thief: thiefKey, rsa } = await keysOnce();

    // Registration: every forged proof on a fresh login's challenge is refused, and the challenge survives them.
    const bob = await app.login('bob');
    const entry = registrationOf(bob);
    const challenge = entry.challenge ?? '';
    const registrationUrl = entry.path;
    const postProof = (from: HttpClient, proof: string) => from.post(registrationUrl, { headers: dbscHeaders({ proof }) });
    expectError(await postProof(bob.client, unsignedDbscProof(challenge, browser.publicJwk)), 401, 'invalid_device_bound_proof');
    expectError(await postProof(bob.client, hmacDbscProof(challenge, true)), 401, 'invalid_device_bound_proof');
    expectError(
      await postProof(bob.client, await signDbscProof(browser, challenge, { registration: true, typ: 'JWT' })),
      401,
      'invalid_device_bound_proof',
    );
    expectError(
      await postProof(bob.client, await signDbscProof(browser, 'not-our-challenge', { registration: true })),
      401,
      'invalid_device_bound_proof',
    );
    expectError(await bob.client.post(registrationUrl, {}), 401, 'invalid_device_bound_proof');
    // A proof signed by one key but carrying another's jwk.
    const swapped = await signDbscProof({ ...thiefKey, publicJwk: browser.publicJwk }, challenge, { registration: true });
    expectError(await postProof(bob.client, swapped), 401, 'invalid_device_bound_proof');
    // The honest RS256 registration, then its replay (the challenge is single use).
    const rsaProof = await signDbscProof(rsa, challenge, { registration: true });
    const ok = await postProof(bob.client, rsaProof);
    expect(ok.status, ok.text).toBe(200);
    expectError(await postProof(bob.client, rsaProof), 401, 'invalid_device_bound_proof');

    // Refresh of alice's bound session.
    const { alice, registered } = await boundLogin(app, browser);
    const refreshUrl = app.at('/device-bound/refresh/');
    const send = (proof: string) => alice.client.post(refreshUrl, { headers: dbscHeaders({ sessionId: alice.sessionId, proof }) });
    const next = cachedChallenge(registered, alice.sessionId) ?? '';
    expectError(await send(await signDbscProof(thiefKey, next, { registration: false })), 401, 'invalid_device_bound_proof');
    expectError(await send(unsignedDbscProof(next)), 401, 'invalid_device_bound_proof');
    expectError(await send(hmacDbscProof(next, false)), 401, 'invalid_device_bound_proof');
    // A registration challenge is not a refresh challenge: sign it and be asked again.
    expectError(await send(await signDbscProof(browser, challenge, { registration: false })), 403, 'device_bound_challenge');
    // The honest answer, then its replay: the second is asked for a new challenge, and gets no cookie.
    const honest = await signDbscProof(browser, next, { registration: false });
    expect((await send(honest)).status).toBe(200);
    const replay = await send(honest);
    expectError(replay, 403, 'device_bound_challenge');
    expect(replay.setCookies).toEqual([]);
    // A stale challenge (past its lifetime): asked again.
    const fresh = cachedChallenge(replay, alice.sessionId) ?? '';
    app.clock.advance(121);
    const stale = await send(await signDbscProof(browser, fresh, { registration: false }));
    expectError(stale, 403, 'device_bound_challenge');
    // Malformed headers: 400 or 401 with a code, never a 500.
    expectError(await alice.client.post(refreshUrl, { headers: { 'sec-secure-session-id': 'unquoted' } }), 400, 'invalid_request');
    expectError(
      await alice.client.post(refreshUrl, { headers: { ...dbscHeaders({ sessionId: alice.sessionId }), 'secure-session-response': 'not-a-string' } }),
      401,
      'invalid_device_bound_proof',
    );
    expectError(await alice.client.post(refreshUrl, { headers: dbscHeaders({ sessionId: 'no-such-session' }) }), 401, 'session_not_found');
    // Bob's session (bound to another key) does not answer alice's key.
    expectError(
      await alice.client.post(refreshUrl, { headers: dbscHeaders({ sessionId: bob.sessionId, proof: honest }) }),
      401,
      'invalid_device_bound_proof',
    );
  });

  kit.test(
    'device-bound/unbound-keeps-working',
    'a browser that never registers keeps an ordinary session, invited again at each refresh',
    async () => {
      const app = await kit.start(ON);
      const alice = await app.login('alice');
      expect(registrationOf(alice).challenge).toEqual(expect.any(String));
      for (let round = 0; round < 3; round += 1) {
        const refreshed = await app.refresh(alice.client);
        expect(refreshed.status, refreshed.text).toBe(200);
        expect(parseRegistration(refreshed.headers.get('secure-session-registration'))).toHaveLength(1);
      }
      // Its refresh-time invitation still registers.
      const { browser } = await keysOnce();
      const last = await app.refresh(alice.client);
      const [entry] = parseRegistration(last.headers.get('secure-session-registration'));
      const registered = await register(alice.client, entry!, browser);
      expect(registered.status, registered.text).toBe(200);
      expect((await app.refresh(alice.client)).status).toBe(200);
    },
  );
}
