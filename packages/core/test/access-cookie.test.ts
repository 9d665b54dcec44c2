import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { maskCsrfSecret, newCsrfSecret } from '../src/http/csrf.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { plainHasher, sessauthRequest, setCookieLine, silentLogger, type TestUser, testUsers, USERS } from './helpers/sessauth-harness.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import type { UserPort } from '../src/users/user-port.js';

const BASE = { secretKey: 'a-test-secret-that-is-long-enough-for-hs256!', issuer: 'https://issuer.test', audience: 'test' } as const;
const ON: SessauthOptions = { ...BASE, refreshTokenTransport: 'cookie', accessTokenCookie: true };

function settingOf(options: SessauthOptions): string {
  try {
    resolveOptions(options);
  } catch (error) {
    if (error instanceof SettingsError) return error.setting;
    throw error;
  }
  return 'accepted';
}

async function engineWithSession(options: SessauthOptions = ON) {
  const auth = await createSessauth({ options, store: new MemorySessionStore(), users: testUsers, geolocation: null, logger: silentLogger });
  const created = await auth.createSessionFor('user-alice', { userAgent: 'test', ip: null });
  return { auth, created };
}

/** A request the guard reads the cookie of: https://app.test, as a browser sends it. */
function page(method: string, cookie: string, extra: Record<string, string> = {}) {
  const headers = new Map<string, string[]>([
    ['host', ['app.test']],
    ['cookie', [cookie]],
  ]);
  for (const [name, value] of Object.entries(extra)) headers.set(name, [value]);
  return { authorization: undefined, request: { method, headers, peerAddress: '127.0.0.1', secure: true } };
}

describe('JWT_ACCESS_TOKEN_COOKIE', () => {
  it('is off by default and needs a cookie transport, a name of its own, and Secure for a __Host- name', () => {
    expect(resolveOptions(BASE).accessTokenCookie).toBe(false);
    expect(settingOf({ ...BASE, accessTokenCookie: true })).toBe('JWT_ACCESS_TOKEN_COOKIE');
    expect(settingOf({ ...ON, accessCookieName: 'refresh_token' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, accessCookieName: 'csrftoken' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, accessCookieName: '__Host-access', accessCookieSecure: false })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, accessCookieName: '__Host-access' })).toBe('accepted');
    // Secure follows the refresh cookie's setting (http://localhost development), unless set.
    expect(resolveOptions({ ...ON, refreshCookieSecure: false }).accessCookieSecure).toBe(false);
  });

  it('compares the resolved cookie names and Secure flags: defaults and what follows another setting count', () => {
    // Only the other setting named: the default access name collides with it.
    expect(settingOf({ ...ON, refreshCookieName: 'access_token' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, csrfCookieName: 'access_token' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, accessCookieName: 'csrftoken', csrfCookieName: 'xsrf' })).toBe('accepted');
    // Secure not set on the access cookie: it follows JWT_REFRESH_COOKIE_SECURE=false, which a __Host- or __Secure- name cannot have.
    expect(settingOf({ ...ON, refreshCookieSecure: false, accessCookieName: '__Host-access' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, refreshCookieSecure: false, accessCookieName: '__Secure-access' })).toBe('JWT_ACCESS_COOKIE_NAME');
    expect(settingOf({ ...ON, refreshCookieSecure: false, accessCookieSecure: true, accessCookieName: '__Host-access' })).toBe('accepted');
  });

  it("createSessionFor's response sets the cookie; the guard reads it; an unsafe method needs the CSRF token and a same-origin Origin", async () => {
    const { auth, created } = await engineWithSession();
    const lines = created.response().setCookies;
    expect(lines).toContain(`access_token=${created.access_token}; Path=/; Max-Age=300; HttpOnly; Secure; SameSite=Lax`);
    const cookie = `access_token=${created.access_token}`;
    expect((await auth.authenticate(page('GET', cookie))).session.userId).toBe('user-alice');
    await expect(auth.authenticate(page('POST', cookie))).rejects.toMatchObject({ code: 'csrf_failed' });
    const secret = newCsrfSecret();
    const withCsrf = `${cookie}; csrftoken=${secret}`;
    const token = maskCsrfSecret(secret);
    // HTTPS without Origin needs a same-origin Referer (Django's rule): a forged cross-site POST has neither.
    await expect(auth.authenticate(page('POST', withCsrf, { 'x-csrftoken': token }))).rejects.toMatchObject({ code: 'csrf_failed' });
    await expect(auth.authenticate(page('POST', withCsrf, { 'x-csrftoken': token, origin: 'https://evil.test' }))).rejects.toMatchObject({
      code: 'csrf_failed',
    });
    expect((await auth.authenticate(page('POST', withCsrf, { 'x-csrftoken': token, origin: 'https://app.test' }))).user.id).toBe('user-alice');
  });

  it('two cookies of the name fail closed; a stale cookie is anonymous for the optional guard; off, the cookie is never read', async () => {
    const { auth, created } = await engineWithSession();
    const cookie = `access_token=${created.access_token}`;
    await expect(auth.authenticate(page('GET', `${cookie}; ${cookie}`))).rejects.toMatchObject({ code: 'invalid_token' });
    await auth.invalidateAllForUser('user-alice');
    await expect(auth.authenticate(page('GET', cookie))).rejects.toMatchObject({ code: 'session_expired' });
    expect(await auth.authenticateOptional(page('GET', cookie))).toBeNull();

    const off = await engineWithSession({ ...BASE, refreshTokenTransport: 'cookie' });
    expect(off.created.response().setCookies.some((line) => line.startsWith('access_token='))).toBe(false);
    await expect(off.auth.authenticate(page('GET', `access_token=${off.created.access_token}`))).rejects.toMatchObject({ code: 'invalid_token' });
    expect(await off.auth.authenticateOptional(page('GET', `access_token=${off.created.access_token}`))).toBeNull();
  });
});

describe('JWT_ACCESS_TOKEN_COOKIE and "remember": false', () => {
  const alice = USERS.find((user) => user.username === 'alice')!;

  /** A browser's round: login (remember as given), refresh, re-authentication; the access-cookie line of each. */
  async function accessCookieLines(remember: boolean): Promise<string[]> {
    // The test users with the name they log in with, which re-authentication needs.
    const users: UserPort<TestUser> = Object.assign(Object.create(testUsers) as UserPort<TestUser>, {
      usernameOf: (user: TestUser) => user.username,
    });
    const auth = await createSessauth<TestUser>({
      options: { ...BASE, loginThrottleRate: '0', refreshTokenTransport: 'cookie', accessTokenCookie: true, refreshCookieSecure: false },
      store: new MemorySessionStore(),
      users,
      authenticator: createPasswordAuthenticator({ users, hasher: plainHasher }),
      geolocation: null,
      logger: silentLogger,
    });
    const secret = newCsrfSecret();
    const csrf = { 'content-type': 'application/json', cookie: `csrftoken=${secret}`, 'x-csrftoken': maskCsrfSecret(secret), host: 'app.test' };
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      auth.handle(
        sessauthRequest({ method: 'POST', path: `${auth.options.prefix}/${path}/`, headers: { ...csrf, ...headers }, body: JSON.stringify(body) }),
      );
    const login = (await post('login', { username: alice.username, password: alice.password, remember }))!;
    expect(login.status).toBe(200);
    const refreshCookie = setCookieLine(login, 'refresh_token')!.split(';')[0]!;
    const refresh = (await post('refresh', {}, { cookie: `csrftoken=${secret}; ${refreshCookie}` }))!;
    expect(refresh.status).toBe(200);
    const { access_token: token } = JSON.parse(refresh.body!) as { access_token: string };
    const reauth = (await post('reauthenticate', { password: alice.password }, { authorization: `Bearer ${token}` }))!;
    expect(reauth.status).toBe(200);
    return [login, refresh, reauth].map((response) => setCookieLine(response, 'access_token')!);
  }

  it('sets the access cookie without Max-Age on login, refresh and re-authentication, as the refresh cookie', async () => {
    const lines = await accessCookieLines(false);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatch(/^access_token=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    }
  });

  it('keeps Max-Age (the access lifetime) for a remembered session, step-up included', async () => {
    for (const line of await accessCookieLines(true)) expect(line).toMatch(/^access_token=[^;]+; Path=\/; Max-Age=300; HttpOnly; SameSite=Lax$/);
  });
});
