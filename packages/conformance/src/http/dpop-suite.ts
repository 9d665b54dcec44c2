import type { TokenResponseBody } from '@sessauth/core';
import { expect } from 'vitest';
import type { LoggedIn, TestApp } from './conformance-app.js';
import { type DpopKey, hmacProof, makeDpopKey, type ProofClaims, signProof, unsignedProof, weakRsaProof } from './dpop-client.js';
import { expectError } from './expectations.js';
import { field, type HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';
import { claimsOf } from './token-forge.js';

const ALLOWED = { dpop: 'allowed' } as const;
const REQUIRED = { dpop: 'required' } as const;

// One key per role for the whole run: key generation is the dear part of a proof.
let keys: Promise<{ owner: DpopKey; thief: DpopKey; ed: DpopKey; rsa: DpopKey }> | undefined;
const keysOnce = () =>
  (keys ??= (async () => ({
    owner: await makeDpopKey('ES256'),
    thief: await makeDpopKey('ES256'),
    ed: await makeDpopKey('EdDSA'),
    rsa: await makeDpopKey('PS256'),
  }))());

const nowSeconds = (app: TestApp) => Math.floor(app.clock.now().getTime() / 1000);
/** The URI a proof names (RFC 9449 s4.2 `htu`): the server's origin and the path, no query. */
const htuOf = (app: TestApp, path: string) => `${app.baseUrl}${path}`;

/** A proof of `key` for `method path` now (by the app's clock), bound to `accessToken` when given. */
function proofFor(app: TestApp, key: DpopKey, method: string, path: string, extra: Partial<ProofClaims> = {}): Promise<string> {
  return signProof(key, { htm: method, htu: htuOf(app, path), iat: nowSeconds(app), ...extra });
}

interface BoundLogin extends LoggedIn {
  readonly tokenType: unknown;
}

async function dpopLogin(app: TestApp, key: DpopKey): Promise<BoundLogin> {
  const dpop = await proofFor(app, key, 'POST', app.at('/login/'));
  const login = await app.login('alice', { headers: { dpop } });
  return { ...login, tokenType: field<TokenResponseBody>(login.result.body, 'token_type') };
}

/** A guarded request the RFC 9449 s7.1 way: `Authorization: DPoP <token>` and a fresh proof with `ath`. */
async function dpopGet(app: TestApp, who: LoggedIn, path: string, key: DpopKey, access = who.access): Promise<HttpResult> {
  const dpop = await proofFor(app, key, 'GET', path, { accessToken: access });
  return who.client.get(path, { headers: { authorization: `DPoP ${access}`, dpop } });
}

async function dpopRefresh(app: TestApp, who: LoggedIn, refreshToken: string, key: DpopKey | null): Promise<HttpResult> {
  const headers: Record<string, string> = key === null ? {} : { dpop: await proofFor(app, key, 'POST', app.at('/refresh/')) };
  return who.client.post(app.at('/refresh/'), { json: { refresh_token: refreshToken }, headers });
}

/** RFC 9449 s7.1: `WWW-Authenticate: DPoP error="<code>"`, read as a client would (a parameter, any order). */
function expectDpopChallenge(result: HttpResult, error: string): void {
  const header = result.headers.get('www-authenticate') ?? '';
  expect(header, 'WWW-Authenticate').toMatch(/^DPoP\s/i);
  expect(header).toMatch(new RegExp(`(?:^DPoP\\s+|,\\s*)error="?${error}"?(?:\\s*,|$)`, 'i'));
}

function expectBadProof(result: HttpResult, what: string): void {
  expect(result.status, `${what}: ${result.text}`).toBe(401);
  expect(result.errorCode, what).toBe('invalid_dpop_proof');
  expectDpopChallenge(result, 'invalid_dpop_proof');
}

/** DPoP (RFC 9449, JWT_DPOP): key-bound sessions, attacked as the RFC says a thief would. */
export function dpopSuite(kit: SuiteKit): void {
  kit.test(
    'dpop/bound-flow',
    'a login with a proof binds the session: token_type DPoP, cnf.jkt; guarded route, core endpoint and refresh all work with proofs',
    async () => {
      const app = await kit.start(ALLOWED);
      const { owner } = await keysOnce();
      const alice = await dpopLogin(app, owner);
      expect(alice.tokenType).toBe('DPoP');
      expect(claimsOf(alice.access).cnf).toEqual({ jkt: owner.jkt });
      const me = await dpopGet(app, alice, '/me', owner);
      expect(me.status, me.text).toBe(200);
      // A query is not part of htu (RFC 9449 s4.3): the proof names the path alone.
      const withQuery = await alice.client.get('/me?tab=1', {
        headers: { authorization: `DPoP ${alice.access}`, dpop: await proofFor(app, owner, 'GET', '/me', { accessToken: alice.access }) },
      });
      expect(withQuery.status, withQuery.text).toBe(200);
      // The core's own guarded endpoints take the same proof.
      const sessions = await dpopGet(app, alice, app.at('/sessions/'), owner);
      expect(sessions.status, sessions.text).toBe(200);
      const refreshed = await dpopRefresh(app, alice, alice.refresh, owner);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(field<TokenResponseBody>(refreshed.body, 'token_type')).toBe('DPoP');
      const access = field<TokenResponseBody>(refreshed.body, 'access_token') as string;
      expect(claimsOf(access).cnf).toEqual({ jkt: owner.jkt });
      expect((await dpopGet(app, alice, '/me', owner, access)).status).toBe(200);
      // Other algorithms of the RFC bind too.
      for (const key of [(await keysOnce()).ed, (await keysOnce()).rsa]) {
        const other = await dpopLogin(app, key);
        expect(other.tokenType).toBe('DPoP');
        expect((await dpopGet(app, other, '/me', key)).status, key.alg).toBe(200);
      }
      // An unbound login of the same app is unchanged: no token_type, Bearer works.
      const bob = await app.login('bob');
      expect(field<TokenResponseBody>(bob.result.body, 'token_type')).toBeUndefined();
      expect((await bob.client.get('/me', { bearer: bob.access })).status).toBe(200);
    },
  );

  kit.test(
    'dpop/stolen-refresh-token',
    "a refresh token copied without the key is refused (no proof, or another key's) and the owner's session goes on: no reuse, no revocation",
    async () => {
      const app = await kit.start(ALLOWED);
      const { owner, thief } = await keysOnce();
      const alice = await dpopLogin(app, owner);
      const attacker = { ...alice, client: app.client() };
      expectBadProof(await dpopRefresh(app, attacker, alice.refresh, null), 'no proof');
      expectBadProof(await dpopRefresh(app, attacker, alice.refresh, thief), "the thief's own key");
      // The owner's refresh token is still the live one: it rotates, no reuse is detected.
      const refreshed = await dpopRefresh(app, alice, alice.refresh, owner);
      expect(refreshed.status, refreshed.text).toBe(200);
      const access = field<TokenResponseBody>(refreshed.body, 'access_token') as string;
      expect((await dpopGet(app, alice, '/me', owner, access)).status).toBe(200);
      expect(app.logger.eventsAt('warn')).not.toContain('token_reuse_detected');
    },
  );

  kit.test(
    'dpop/stolen-access-token',
    'a bound access token is refused as Bearer, with a proof of another key, and as DPoP without a proof',
    async () => {
      const app = await kit.start(ALLOWED);
      const { owner, thief } = await keysOnce();
      const alice = await dpopLogin(app, owner);
      const thiefClient = app.client();
      const asBearer = await thiefClient.get('/me', { bearer: alice.access });
      expectError(asBearer, 401, 'invalid_token');
      expectDpopChallenge(asBearer, 'invalid_token');
      expectBadProof(await dpopGet(app, { ...alice, client: thiefClient }, '/me', thief), "a proof of the thief's key");
      expectBadProof(await thiefClient.get('/me', { headers: { authorization: `DPoP ${alice.access}` } }), 'no proof');
      // An unbound session's token under the DPoP scheme is refused too (RFC 9449 s7.2).
      const bob = await app.login('bob');
      expectError(await dpopGet(app, bob, '/me', thief, bob.access), 401, 'invalid_token');
      expect((await dpopGet(app, alice, '/me', owner)).status).toBe(200);
    },
  );

  kit.test(
    'dpop/proof-checks',
    'a replayed proof, a proof for another URL or method, a stale or future iat, a wrong or missing ath, two proofs: all refused',
    async () => {
      const app = await kit.start(ALLOWED);
      const { owner } = await keysOnce();
      const alice = await dpopLogin(app, owner);
      const send = (dpop: string | string[]) =>
        alice.client.get('/me', { headers: { authorization: `DPoP ${alice.access}`, dpop: Array.isArray(dpop) ? dpop.join(', ') : dpop } });
      const good = await proofFor(app, owner, 'GET', '/me', { accessToken: alice.access });
      expect((await send(good)).status).toBe(200);
      expectBadProof(await send(good), 'the same proof again');
      const now = nowSeconds(app);
      const cases: Array<[string, Partial<ProofClaims> & { path?: string; method?: string }]> = [
        ['another path', { path: '/me/optional' }],
        ['another origin', { htu: `http://attacker.example${'/me'}` }],
        ['another method', { method: 'POST' }],
        ['a stale iat', { iat: now - 600 }],
        ['a future iat', { iat: now + 600 }],
        ['a wrong ath', { ath: 'A'.repeat(43) }],
      ];
      for (const [what, claims] of cases) {
        const { path = '/me', method = 'GET', ...rest } = claims;
        expectBadProof(await send(await proofFor(app, owner, method, path, { accessToken: alice.access, ...rest })), what);
      }
      expectBadProof(await send(await proofFor(app, owner, 'GET', '/me')), 'no ath');
      const [one, two] = [
        await proofFor(app, owner, 'GET', '/me', { accessToken: alice.access }),
        await proofFor(app, owner, 'GET', '/me', { accessToken: alice.access }),
      ];
      expectBadProof(await send([one, two]), 'two proofs');
      // A login proof is checked as strictly: another endpoint's proof does not bind a login.
      const wrongLogin = await app.client().post(app.at('/login/'), {
        json: { username: 'alice', password: app.users.passwords.alice },
        headers: { dpop: await proofFor(app, owner, 'POST', app.at('/refresh/')) },
      });
      expectBadProof(wrongLogin, 'a refresh proof at login');
    },
  );

  kit.test('dpop/hostile-proofs', 'alg none, HS256, a private jwk, a wrong typ, a weak RSA key: refused at login, no session bound', async () => {
    const app = await kit.start(ALLOWED);
    const { owner } = await keysOnce();
    const claims: ProofClaims = { htm: 'POST', htu: htuOf(app, app.at('/login/')), iat: nowSeconds(app) };
    const proofs: Array<[string, string]> = [
      ['alg none', unsignedProof(owner, claims)],
      ['HS256', await hmacProof(claims)],
      ['a private jwk', await signProof(owner, claims, { jwk: owner.privateJwk })],
      ['typ JWT', await signProof(owner, claims, { typ: 'JWT' })],
      ['RSA 1024', weakRsaProof(claims)],
      ['not a JWT', 'not-a-proof'],
    ];
    for (const [what, dpop] of proofs) {
      const result = await app
        .client()
        .post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice }, headers: { dpop } });
      expectBadProof(result, what);
    }
  });

  kit.test('dpop/required', 'JWT_DPOP=required: a login without a proof is refused, one with a proof is bound', async () => {
    const app = await kit.start(REQUIRED);
    const { owner } = await keysOnce();
    const plain = await app.client().post(app.at('/login/'), { json: { username: 'alice', password: app.users.passwords.alice } });
    expectBadProof(plain, 'no proof');
    const alice = await dpopLogin(app, owner);
    expect(alice.tokenType).toBe('DPoP');
    expect((await dpopGet(app, alice, '/me', owner)).status).toBe(200);
  });

  kit.test('dpop/off', 'JWT_DPOP off (the default): a DPoP header changes nothing, the session is a Bearer one', async () => {
    const app = await kit.start();
    const { owner } = await keysOnce();
    const alice = await dpopLogin(app, owner);
    expect(alice.tokenType).toBeUndefined();
    expect(claimsOf(alice.access).cnf).toBeUndefined();
    expect((await alice.client.get('/me', { bearer: alice.access })).status).toBe(200);
  });
}

/**
 * DPoP under a framework mount (the mount suite's, skipped with it where a runtime serves only at
 * the root): a proof's `htu` names the full path the client sent, `/api/auth/login/`, as the
 * adapter passes it; a proof naming the path without the mount is refused.
 */
export function mountedDpopTest(kit: SuiteKit, mount: string): void {
  kit.test('mount/dpop', `mounted under ${mount}: DPoP proofs name the full path (login, refresh); one without the mount is refused`, async () => {
    const app = await kit.start(ALLOWED, { mountPath: mount });
    const { owner } = await keysOnce();
    const unmounted = await app.client().post(app.at('/login/'), {
      json: { username: 'alice', password: app.users.passwords.alice },
      headers: { dpop: await proofFor(app, owner, 'POST', app.at('/login/').slice(mount.length)) },
    });
    expectBadProof(unmounted, 'a proof naming the path without the mount');
    const alice = await dpopLogin(app, owner);
    expect(alice.tokenType).toBe('DPoP');
    expect((await dpopGet(app, alice, '/me', owner)).status).toBe(200);
    const refreshed = await dpopRefresh(app, alice, alice.refresh, owner);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(field<TokenResponseBody>(refreshed.body, 'token_type')).toBe('DPoP');
  });
}
