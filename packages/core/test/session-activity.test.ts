import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { IntegrationError } from '../src/errors/sessauth-error.js';
import type { RiskSignalEvent } from '../src/events/session-events.js';
import type { GeolocationProvider, Location } from '../src/geo/location.js';
import type { PublicActivityEntry, PublicSession } from '../src/http/wire-types.js';
import type { SessauthOptions } from '../src/options/options.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { plainHasher, sessauthRequest, silentLogger, type TestUser, testUsers } from './helpers/sessauth-harness.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const PARIS_IP = '81.2.69.142';
const PARIS_NEIGHBOUR_IP = '81.2.69.200';
const SYDNEY_IP = '1.128.0.10';

// The host's geolocation port, answering for the test addresses with coordinates.
const PLACES: Record<string, Location> = {
  [PARIS_IP]: { city: 'Paris', country: 'France', country_code: 'FR', latitude: 48.8566, longitude: 2.3522 },
  [PARIS_NEIGHBOUR_IP]: { city: 'Paris', country: 'France', country_code: 'FR', latitude: 48.8566, longitude: 2.3522 },
  [SYDNEY_IP]: { city: 'Sydney', country: 'Australia', country_code: 'AU', latitude: -33.8688, longitude: 151.2093 },
};
const geolocation: GeolocationProvider = (ip) => PLACES[ip] ?? null;

function manualClock() {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => new Date(ms), advance: (seconds: number) => void (ms += seconds * 1000) };
}

async function engine(options: Partial<SessauthOptions> = {}) {
  const clock = manualClock();
  const signals: RiskSignalEvent[] = [];
  const store = new MemorySessionStore();
  const auth = await createSessauth<TestUser>({
    options: {
      secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
      issuer: 'https://issuer.test',
      audience: 'sessauth-test',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      accessTokenExpireSeconds: 86_400,
      ...options,
    },
    store,
    users: testUsers,
    authenticator: createPasswordAuthenticator({ users: testUsers, hasher: plainHasher }),
    geolocation,
    logger: silentLogger,
    clock,
    events: { risk_signal: (event) => void signals.push(event) },
  });
  async function login(username: string, client: { ip: string; ua: string }, password = `${username}-password`) {
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/login/',
        headers: { 'content-type': 'application/json', 'user-agent': client.ua },
        body: JSON.stringify({ username, password }),
        peerAddress: client.ip,
      }),
    );
    return { status: response?.status, ...(JSON.parse(response!.body!) as { access_token: string; refresh_token: string }) };
  }
  async function refresh(refreshToken: string, client: { ip: string; ua: string }) {
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json', 'user-agent': client.ua },
        body: JSON.stringify({ refresh_token: refreshToken }),
        peerAddress: client.ip,
      }),
    );
    return { status: response?.status, body: JSON.parse(response!.body!) as { access_token: string; refresh_token: string; error_code?: string } };
  }
  async function get(path: string, accessToken: string) {
    const response = await auth.handle(sessauthRequest({ method: 'GET', path, headers: { authorization: `Bearer ${accessToken}` } }));
    return { status: response?.status, body: JSON.parse(response!.body!) as unknown };
  }
  const sessionIdOf = async (accessToken: string) => (await auth.authenticate({ authorization: [`Bearer ${accessToken}`] })).session.id;
  return { auth, store, clock, signals, login, refresh, get, sessionIdOf };
}

const paris = { ip: PARIS_IP, ua: CHROME };

describe('activity history (JWT_SESSION_ACTIVITY)', () => {
  it('off: the route is a 404 not_found, the list rows are the seed rows, listActivity throws', async () => {
    const { auth, login, get, sessionIdOf } = await engine();
    const { access_token } = await login('alice', paris);
    const id = await sessionIdOf(access_token);
    const activity = await get(`/auth/sessions/${id}/activity/`, access_token);
    expect(activity).toEqual({ status: 404, body: expect.objectContaining({ error_code: 'not_found' }) });
    const list = (await get('/auth/sessions/', access_token)).body as PublicSession[];
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['browser', 'created_at', 'expires_at', 'id', 'ip_address', 'is_current', 'last_activity_at', 'location', 'name', 'user_agent'].sort(),
    );
    await expect(auth.listActivity('user-alice', id)).rejects.toBeInstanceOf(IntegrationError);
  });

  it('records created, refreshed (the client only when it changed), renamed, stepped_up; the list gains the last client', async () => {
    const { auth, clock, login, refresh, get, sessionIdOf } = await engine({ sessionActivity: true });
    const first = await login('alice', paris);
    const id = await sessionIdOf(first.access_token);
    clock.advance(60);
    const same = await refresh(first.refresh_token, paris);
    expect(same.status).toBe(200);
    clock.advance(60);
    const moved = await refresh(same.body.refresh_token, { ip: SYDNEY_IP, ua: FIREFOX });
    expect(moved.status).toBe(200);
    const renamed = await auth.handle(
      sessauthRequest({
        method: 'PATCH',
        path: `/auth/sessions/${id}/`,
        headers: { authorization: `Bearer ${moved.body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Laptop' }),
      }),
    );
    expect(renamed?.status).toBe(200);
    await auth.stepUp('user-alice', id, { amr: ['otp'] });

    const activity = await get(`/auth/sessions/${id}/activity/`, moved.body.access_token);
    expect(activity.status).toBe(200);
    const entries = activity.body as PublicActivityEntry[];
    expect(entries.map((entry) => entry.kind)).toEqual(['created', 'refreshed', 'refreshed', 'renamed', 'stepped_up']);
    expect(entries[0]).toMatchObject({ ip_address: PARIS_IP, browser: 'Chrome on Windows', location: { city: 'Paris' } });
    expect(entries[1]).toMatchObject({ ip_address: null, browser: null, location: null, at: '2026-01-01T00:01:00.000Z' });
    expect(entries[2]).toMatchObject({ ip_address: SYDNEY_IP, browser: 'Firefox on Linux', location: { city: 'Sydney' } });
    expect(entries[3]).toMatchObject({ detail: 'Laptop' });
    expect(entries[4]).toMatchObject({ detail: 'otp' });

    const list = (await get('/auth/sessions/', moved.body.access_token)).body as PublicSession[];
    expect(list[0]).toMatchObject({
      ip_address: PARIS_IP,
      browser: 'Chrome on Windows',
      last_ip_address: SYDNEY_IP,
      last_browser: 'Firefox on Linux',
    });
    expect(await auth.listSessions('user-alice')).toEqual([expect.objectContaining({ last_ip_address: SYDNEY_IP })]);
    expect(await auth.listActivity('user-alice', id)).toEqual(entries);
  });

  it('404 as DELETE: another user session, an unknown id, a malformed id; revoked sessions keep their history for listActivity', async () => {
    const { auth, login, get, sessionIdOf } = await engine({ sessionActivity: true });
    const alice = await login('alice', paris);
    const bob = await login('bob', paris);
    const bobId = await sessionIdOf(bob.access_token);
    for (const id of [bobId, 'no-such-session', 'x%2Fy', 'a'.repeat(300)]) {
      expect(await get(`/auth/sessions/${id}/activity/`, alice.access_token), id).toEqual({
        status: 404,
        body: expect.objectContaining({ error_code: 'session_not_found' }),
      });
    }
    expect(await auth.listActivity('user-alice', bobId)).toEqual([]);
    expect(await auth.revokeSession('user-bob', bobId)).toBe(true);
    expect((await auth.listActivity('user-bob', bobId)).map((entry) => [entry.kind, entry.detail])).toEqual([
      ['created', null],
      ['revoked', 'delete'],
    ]);
  });

  it('reuse records the replaying client and the revocation; a bulk logout records one revoked entry per session', async () => {
    const { auth, login, refresh, sessionIdOf } = await engine({ sessionActivity: true });
    const first = await login('alice', paris);
    const id = await sessionIdOf(first.access_token);
    expect((await refresh(first.refresh_token, paris)).status).toBe(200);
    const replay = await refresh(first.refresh_token, { ip: SYDNEY_IP, ua: FIREFOX });
    expect(replay.body.error_code).toBe('token_reuse_detected');
    const entries = await auth.listActivity('user-alice', id);
    expect(entries.slice(-2)).toEqual([
      expect.objectContaining({ kind: 'reuse_detected', ip_address: SYDNEY_IP, browser: 'Firefox on Linux' }),
      expect.objectContaining({ kind: 'revoked', detail: 'reuse' }),
    ]);

    const a = await sessionIdOf((await login('bob', paris)).access_token);
    const b = await sessionIdOf((await login('bob', paris)).access_token);
    expect(await auth.invalidateAllForUser('user-bob')).toBe(2);
    for (const sessionId of [a, b]) {
      expect((await auth.listActivity('user-bob', sessionId)).at(-1)).toMatchObject({ kind: 'revoked', detail: 'invalidate_all' });
    }
  });

  it('keeps the newest JWT_SESSION_ACTIVITY_MAX_ENTRIES; entries past their age are not read and the purge deletes them', async () => {
    const { auth, store, clock, login, refresh, sessionIdOf } = await engine({
      sessionActivity: true,
      sessionActivityMaxEntries: 3,
      sessionActivityMaxAgeSeconds: 3600,
    });
    const first = await login('alice', paris);
    const id = await sessionIdOf(first.access_token);
    let token = first.refresh_token;
    for (const ip of [PARIS_NEIGHBOUR_IP, SYDNEY_IP, PARIS_IP]) {
      clock.advance(60);
      token = (await refresh(token, { ip, ua: CHROME })).body.refresh_token;
    }
    const kept = await auth.listActivity('user-alice', id);
    expect(kept.map((entry) => [entry.kind, entry.ip_address])).toEqual([
      ['refreshed', PARIS_NEIGHBOUR_IP],
      ['refreshed', SYDNEY_IP],
      ['refreshed', PARIS_IP],
    ]);
    clock.advance(3600 - 120);
    expect((await auth.listActivity('user-alice', id)).map((entry) => entry.ip_address)).toEqual([SYDNEY_IP, PARIS_IP]);
    clock.advance(3600);
    expect(await auth.listActivity('user-alice', id)).toEqual([]);
    await auth.purgeExpired();
    const raw = await store.listActivity({ userId: 'user-alice', sessionIds: [id], now: new Date(0) });
    expect(raw.size).toBe(0);
  });

  it('JWT_PERSIST_CLIENT_IP=false keeps addresses out of the history', async () => {
    const { auth, login, refresh, sessionIdOf } = await engine({ sessionActivity: true, persistClientIp: false });
    const first = await login('alice', paris);
    await refresh(first.refresh_token, { ip: SYDNEY_IP, ua: CHROME });
    const entries = await auth.listActivity('user-alice', await sessionIdOf(first.access_token));
    expect(entries.map((entry) => entry.ip_address)).toEqual([null, null]);
  });

  it('refuses at start-up a store without the activity operations', async () => {
    const bare = new MemorySessionStore() as unknown as Record<string, unknown>;
    const store = new Proxy(bare, { get: (target, key) => (key === 'appendActivity' ? undefined : Reflect.get(target, key, target)) });
    await expect(
      createSessauth<TestUser>({
        options: { secretKey: 'a-test-secret-that-is-long-enough-for-hs256!', issuer: 'https://issuer.test', audience: 'aud', sessionActivity: true },
        store: store as unknown as MemorySessionStore,
        users: testUsers,
        logger: silentLogger,
      }),
    ).rejects.toBeInstanceOf(IntegrationError);
  });
});

describe('risk signals (JWT_RISK_SIGNALS)', () => {
  it('needs the activity history', async () => {
    await expect(engine({ riskSignals: true })).rejects.toThrow(/JWT_SESSION_ACTIVITY/);
  });

  it('new device: a second browser is a signal, the same browser again is not; the first login of a user is not', async () => {
    const { auth, login, signals, sessionIdOf } = await engine({ sessionActivity: true, riskSignals: true });
    await login('alice', paris);
    await auth.eventsSettled();
    expect(signals).toEqual([]);
    const second = await login('alice', { ip: PARIS_IP, ua: FIREFOX });
    await login('alice', paris);
    await auth.eventsSettled();
    const secondId = await sessionIdOf(second.access_token);
    expect(signals).toEqual([
      expect.objectContaining({ signal: 'new_device', during: 'login', sessionId: secondId, browser: 'Firefox on Linux', userId: 'user-alice' }),
    ]);
    expect((await auth.listActivity('user-alice', secondId)).map((entry) => [entry.kind, entry.detail])).toEqual([
      ['created', null],
      ['risk_signal', 'new_device'],
    ]);
  });

  it('impossible travel, new country and new network on a refresh from the other side of the world an hour later', async () => {
    const { auth, clock, login, refresh, signals, sessionIdOf } = await engine({ sessionActivity: true, riskSignals: true });
    const first = await login('alice', paris);
    clock.advance(3600);
    const moved = await refresh(first.refresh_token, { ip: SYDNEY_IP, ua: CHROME });
    expect(moved.status).toBe(200);
    await auth.eventsSettled();
    expect(signals.map((event) => event.signal).sort()).toEqual(['impossible_travel', 'new_country', 'new_network']);
    const travel = signals.find((event) => event.signal === 'impossible_travel')!;
    // Paris to Sydney is about 16,960 km: a plane needs most of a day.
    expect(travel.distanceKm).toBeGreaterThan(16_000);
    expect(travel.distanceKm).toBeLessThan(17_500);
    expect(travel.speedKmh).toBe(travel.distanceKm);
    expect(travel).toMatchObject({ during: 'refresh', ipAddress: SYDNEY_IP, location: { city: 'Sydney' } });
    const kinds = (await auth.listActivity('user-alice', await sessionIdOf(first.access_token))).map((entry) => entry.detail ?? entry.kind);
    expect(kinds.slice(0, 2)).toEqual(['created', 'refreshed']);
    expect(kinds.slice(2).sort()).toEqual(['impossible_travel', 'new_country', 'new_network']);
  });

  it('a slow journey is not impossible travel; an address in the same network is not a new network; the session still refreshes', async () => {
    const { auth, clock, login, refresh, signals } = await engine({ sessionActivity: true, riskSignals: true });
    const first = await login('alice', paris);
    clock.advance(60);
    const near = await refresh(first.refresh_token, { ip: PARIS_NEIGHBOUR_IP, ua: CHROME });
    expect(near.status).toBe(200);
    clock.advance(2 * 86_400);
    const far = await refresh(near.body.refresh_token, { ip: SYDNEY_IP, ua: CHROME });
    expect(far.status).toBe(200);
    await auth.eventsSettled();
    expect(signals.map((event) => event.signal).sort()).toEqual(['new_country', 'new_network']);
  });

  it('failed logins then a success: the success carries the count; under the threshold nothing', async () => {
    const { auth, login, signals } = await engine({ sessionActivity: true, riskSignals: true, riskFailedLogins: 3 });
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await login('bob', paris, 'wrong')).status).toBe(401);
    await login('alice', paris);
    await auth.eventsSettled();
    expect(signals).toEqual([]);
    expect((await login('bob', paris, 'wrong')).status).toBe(401);
    const success = await login('bob', paris);
    expect(success.status).toBe(200);
    await auth.eventsSettled();
    expect(signals).toEqual([expect.objectContaining({ signal: 'failed_logins_then_success', failedLogins: 3, userId: 'user-bob' })]);
  });
});

describe('the activity route when off', () => {
  it('another method on the path is a 404 too (a 405 would say the route exists); on, it is 405 with Allow: GET', async () => {
    for (const [sessionActivity, status] of [
      [false, 404],
      [true, 405],
    ] as const) {
      const { auth } = await engine({ sessionActivity });
      const response = await auth.handle(sessauthRequest({ method: 'POST', path: '/auth/sessions/abc/activity/' }));
      expect(response?.status).toBe(status);
      if (status === 405) expect(response?.headers?.allow).toBe('GET');
    }
  });
});
