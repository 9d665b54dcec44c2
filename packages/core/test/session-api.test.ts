import { describe, expect, it, vi } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { IntegrationError, SessauthError } from '../src/errors/sessauth-error.js';
import type { LoginEvent, RevokeEvent } from '../src/events/session-events.js';
import type { SessauthOptions } from '../src/options/options.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { PublicSession } from '../src/http/wire-types.js';
import { cookiesSet, sessauthRequest, setCookieLine, silentLogger } from './helpers/sessauth-harness.js';

interface User {
  readonly id: string;
  active: boolean;
}

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A clock the test moves by hand (strictly increasing, so "newest first" has one answer). */
function manualClock() {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => new Date((ms += 1)), advance: (seconds: number) => void (ms += seconds * 1000) };
}

async function engine(options: Partial<SessauthOptions> = {}) {
  const alice: User = { id: 'user-alice', active: true };
  const bob: User = { id: 'user-bob', active: true };
  const store = new MemorySessionStore();
  const logins: LoginEvent[] = [];
  const revokes: RevokeEvent[] = [];
  const clock = manualClock();
  const auth = await createSessauth<User>({
    options: {
      secretKey: 'an-hmac-secret-of-exactly-32-by!',
      issuer: 'https://issuer.test',
      audience: 'aud',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      ...options,
    },
    store,
    users: {
      findById: async (id) => [alice, bob].find((user) => user.id === id && user.active) ?? null,
      idOf: (user) => user.id,
      securityStamp: (user) => `stamp-${user.id}`,
    },
    authenticator: async () => alice,
    clock,
    logger: silentLogger,
    events: { login: (event) => void logins.push(event), revoke: (event) => void revokes.push(event) },
  });
  const list = async (bearer: string) => {
    const response = await auth.handle(sessauthRequest({ path: '/auth/sessions/', headers: { authorization: `Bearer ${bearer}` } }));
    return JSON.parse(response!.body!) as PublicSession[];
  };
  return { auth, store, alice, bob, logins, revokes, clock, list };
}

describe('auth.createSessionFor', () => {
  it('returns a working token pair and the session id, records the device, fires login', async () => {
    const { auth, store, alice, logins } = await engine();
    const created = await auth.createSessionFor(alice.id, { userAgent: CHROME_WINDOWS, ip: '::ffff:203.0.113.7' });
    expect(JSON.parse(JSON.stringify(created))).toEqual({
      access_token: created.access_token,
      refresh_token: created.refresh_token,
      session_id: created.session_id,
    });
    const context = await auth.authenticate({ authorization: [`Bearer ${created.access_token}`] });
    expect(context.session.id).toBe(created.session_id);
    expect(context.user).toBe(alice);
    const stored = await store.findSession(created.session_id);
    expect(stored).toMatchObject({ userId: alice.id, ipAddress: '203.0.113.7', userAgent: CHROME_WINDOWS, browser: 'Chrome on Windows' });
    // The refresh token is a real one: it rotates like a login's.
    const refreshed = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: created.refresh_token }),
      }),
    );
    expect(refreshed?.status).toBe(200);
    await vi.waitFor(() => expect(logins).toHaveLength(1));
    expect(logins[0]).toMatchObject({ userId: alice.id, sessionId: created.session_id, browser: 'Chrome on Windows', isNewDevice: true });
  });

  it("reads the client address and User-Agent from a host route's request as the login does", async () => {
    const { auth, store, alice } = await engine({ trustedProxyCidrs: ['10.0.0.0/8'] });
    const request = sessauthRequest({
      path: '/signup',
      peerAddress: '10.1.2.3',
      headers: { 'x-forwarded-for': '198.51.100.9', 'user-agent': CHROME_WINDOWS },
    });
    const created = await auth.createSessionFor(alice.id, { request });
    expect(await store.findSession(created.session_id)).toMatchObject({ ipAddress: '198.51.100.9', browser: 'Chrome on Windows' });
    // From an untrusted peer the header is ignored.
    const direct = sessauthRequest({ path: '/signup', peerAddress: '192.0.2.1', headers: { 'x-forwarded-for': '198.51.100.9' } });
    const other = await auth.createSessionFor(alice.id, { request: direct });
    expect((await store.findSession(other.session_id))?.ipAddress).toBe('192.0.2.1');
  });

  it("response() sets the refresh cookie on the mounted Path given mountPath; a bad mountPath is the host's bug", async () => {
    const { auth, alice } = await engine({ refreshTokenTransport: 'cookie' });
    const pathOf = (lines: readonly string[]) => /;\s*Path=([^;]*)/.exec(lines.find((line) => line.startsWith('refresh_token=')) ?? '')?.[1];
    expect(pathOf((await auth.createSessionFor(alice.id)).response().setCookies)).toBe('/auth/refresh/');
    expect(pathOf((await auth.createSessionFor(alice.id, { mountPath: '/api' })).response().setCookies)).toBe('/api/auth/refresh/');
    await expect(auth.createSessionFor(alice.id, { mountPath: '/a;Domain=evil.test' })).rejects.toBeInstanceOf(IntegrationError);
  });

  it('applies the session cap exactly like the login (the oldest session ends)', async () => {
    const { auth, store, alice } = await engine({ maxActiveSessions: 2 });
    const first = await auth.createSessionFor(alice.id);
    const second = await auth.createSessionFor(alice.id);
    const third = await auth.createSessionFor(alice.id);
    const active = (await store.listActiveSessions(alice.id, new Date(Date.UTC(2026, 0, 2)))).map((s) => s.id);
    expect(active).toEqual([third.session_id, second.session_id]);
    await expect(auth.authenticate({ authorization: [`Bearer ${first.access_token}`] })).rejects.toMatchObject({ code: 'session_expired' });
  });

  it('rejects an unknown or inactive user with invalid_user and creates nothing', async () => {
    const { auth, store, alice } = await engine();
    await expect(auth.createSessionFor('nobody')).rejects.toSatisfy((error) => error instanceof SessauthError && error.code === 'invalid_user');
    alice.active = false;
    await expect(auth.createSessionFor(alice.id)).rejects.toMatchObject({ code: 'invalid_user', status: 401 });
    expect(store.size).toBe(0);
  });

  it('refuses programmer errors: an empty user id, a malformed ip', async () => {
    const { auth, alice } = await engine();
    await expect(auth.createSessionFor('')).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.createSessionFor(alice.id, { ip: '127.1' })).rejects.toBeInstanceOf(IntegrationError);
  });

  it("response() is the login's own 200: in cookie transport the refresh token is only in the cookie", async () => {
    const { auth, alice } = await engine({ refreshTokenTransport: 'cookie' });
    const created = await auth.createSessionFor(alice.id);
    const response = created.response();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body!)).toEqual({ access_token: created.access_token });
    expect(cookiesSet(response).get('refresh_token')).toBe(created.refresh_token);
    expect(setCookieLine(response, 'refresh_token')).toMatch(/HttpOnly/);
    expect(response.headers['cache-control']).toBe('no-store');
    // remember: false gives the short session's browser-session cookie, as at login.
    const short = (await auth.createSessionFor(alice.id, { remember: false })).response();
    expect(setCookieLine(short, 'refresh_token')).not.toMatch(/Max-Age/i);
  });
});

describe('auth.listSessions, auth.revokeSession, auth.invalidateAllForUser', () => {
  it('lists what GET /auth/sessions/ lists, with is_current for the given session only', async () => {
    const { auth, alice, bob, list } = await engine();
    const one = await auth.createSessionFor(alice.id, { userAgent: CHROME_WINDOWS });
    const two = await auth.createSessionFor(alice.id);
    await auth.createSessionFor(bob.id);
    const viaApi = await auth.listSessions(alice.id, { currentSessionId: two.session_id });
    expect(viaApi).toEqual(await list(two.access_token));
    expect(viaApi.map((s) => [s.id, s.is_current])).toEqual([
      [two.session_id, true],
      [one.session_id, false],
    ]);
    expect((await auth.listSessions(alice.id)).every((s) => !s.is_current)).toBe(true);
    expect(await auth.listSessions('nobody')).toEqual([]);
  });

  it("revokes one of the user's own sessions (reason delete); false for another user's, an ended, an unknown or a malformed id", async () => {
    const { auth, alice, bob, revokes } = await engine();
    const mine = await auth.createSessionFor(alice.id);
    const theirs = await auth.createSessionFor(bob.id);
    expect(await auth.revokeSession(alice.id, theirs.session_id)).toBe(false);
    expect(await auth.revokeSession(alice.id, 'no such id')).toBe(false);
    expect(await auth.revokeSession(alice.id, 'x'.repeat(500))).toBe(false);
    expect(await auth.revokeSession(alice.id, mine.session_id)).toBe(true);
    expect(await auth.revokeSession(alice.id, mine.session_id)).toBe(false);
    await expect(auth.authenticate({ authorization: [`Bearer ${mine.access_token}`] })).rejects.toMatchObject({ code: 'session_expired' });
    expect((await auth.authenticate({ authorization: [`Bearer ${theirs.access_token}`] })).user).toBe(bob);
    await vi.waitFor(() => expect(revokes).toHaveLength(1));
    expect(revokes).toEqual([{ userId: alice.id, sessionId: mine.session_id, count: 1, reason: 'delete' }]);
  });

  it('ends every session but the kept one (reason invalidate_all, counted), and other users keep theirs', async () => {
    const { auth, alice, bob, revokes } = await engine();
    const [a1, a2, a3] = [await auth.createSessionFor(alice.id), await auth.createSessionFor(alice.id), await auth.createSessionFor(alice.id)];
    const b1 = await auth.createSessionFor(bob.id);
    expect(await auth.invalidateAllForUser(alice.id, { except: a2!.session_id })).toBe(2);
    expect((await auth.listSessions(alice.id)).map((s) => s.id)).toEqual([a2!.session_id]);
    for (const ended of [a1!, a3!]) {
      await expect(auth.authenticate({ authorization: [`Bearer ${ended.access_token}`] })).rejects.toMatchObject({ code: 'session_expired' });
    }
    expect((await auth.authenticate({ authorization: [`Bearer ${b1.access_token}`] })).user).toBe(bob);
    await vi.waitFor(() => expect(revokes).toHaveLength(1));
    expect(revokes[0]).toEqual({ userId: alice.id, sessionId: null, count: 2, reason: 'invalidate_all' });
    // Without `except` the kept one ends too; an `except` of another user keeps nothing of this one.
    expect(await auth.invalidateAllForUser(alice.id, { except: b1.session_id })).toBe(1);
    expect(await auth.listSessions(alice.id)).toEqual([]);
    expect(await auth.invalidateAllForUser(bob.id)).toBe(1);
    expect(await auth.invalidateAllForUser(bob.id)).toBe(0);
  });

  it('refuses an empty user id as a programmer error', async () => {
    const { auth } = await engine();
    await expect(auth.listSessions('')).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.revokeSession('', 'x')).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.invalidateAllForUser('')).rejects.toBeInstanceOf(IntegrationError);
  });
});
