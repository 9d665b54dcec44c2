import { describe, expect, it } from 'vitest';
import { createAdminListing } from '../src/admin/host-listing.js';
import type { AdminSessionJson } from '../src/admin/session-view.js';
import type { Location } from '../src/geo/location.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { apiLogin, createHarness, sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

const PREFIX = '/admin/sessauth/session';
const LONDON = '81.2.69.142';
const LISBON = '2.125.160.216';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

/** A provider whose city is markup: what the page shows of it must be text. */
const PLACES: Record<string, Location> = {
  [LONDON]: { city: '<script>alert(1)</script>', country_code: 'GB', latitude: 51.5, longitude: -0.12 },
  [LISBON]: { city: 'Lisbon', country_code: 'PT', latitude: 38.72, longitude: -9.14 },
};

const sidOf = (token: string): string => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

async function seeded(options: Record<string, unknown> = { sessionActivity: true, riskSignals: true }) {
  const store = new MemorySessionStore();
  const harness = await createHarness({ store, options, geolocation: (ip) => PLACES[ip] ?? null });
  const london = await apiLogin(harness.auth, 'bob', { userAgent: CHROME, peerAddress: LONDON });
  const lisbon = await apiLogin(harness.auth, 'bob', { userAgent: FIREFOX, peerAddress: LISBON });
  const admin = await apiLogin(harness.auth, 'alice');
  return { ...harness, store, admin, london: sidOf(london), lisbon: sidOf(lisbon) };
}

function page(auth: Awaited<ReturnType<typeof seeded>>['auth'], token: string, query: string) {
  return auth.handle(sessauthRequest({ path: `${PREFIX}/`, query, headers: { authorization: `Bearer ${token}`, accept: 'text/html' } }));
}

describe('admin listing: the activity view (JWT_SESSION_ACTIVITY)', () => {
  it("shows each session's signals as badges and its history folded, every value escaped, under the same CSP", async () => {
    const { auth, admin, lisbon } = await seeded();
    const response = await page(auth, admin, 'user=user-bob');
    expect(response?.status).toBe(200);
    const html = response!.body!;
    expect(html).toContain('<th>Activity</th>');
    const row = html.slice(html.indexOf(`data-session-id="${lisbon}"`), html.indexOf('</tr>', html.indexOf(`data-session-id="${lisbon}"`)));
    expect(row).toContain('<span class="badge signal" data-signal="new_device">new device</span>');
    expect(row).toContain('<span class="badge signal" data-signal="new_country">new country</span>');
    expect(row).toContain('<span class="badge signal" data-signal="impossible_travel">impossible travel</span>');
    expect(row).toContain('<details><summary>4 events</summary><ol>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response!.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'/);
  });

  it('the JSON rows carry the last client, the signals and the history; without the history they are as before', async () => {
    const { auth, admin, lisbon, london } = await seeded();
    const json = JSON.parse((await page(auth, admin, 'user=user-bob&format=json'))!.body!) as { sessions: AdminSessionJson[] };
    const byId = new Map(json.sessions.map((session) => [session.id, session]));
    expect(byId.get(lisbon)).toMatchObject({
      last_ip_address: LISBON,
      last_browser: 'Firefox on Linux',
      signals: ['new_device', 'new_country', 'impossible_travel'],
    });
    expect(byId.get(london)?.activity?.map((entry) => entry.kind)).toEqual(['created']);

    const off = await seeded({});
    const plain = JSON.parse((await page(off.auth, off.admin, 'user=user-bob&format=json'))!.body!) as { sessions: AdminSessionJson[] };
    expect(Object.keys(plain.sessions[0]!).sort()).toEqual(
      [
        'browser',
        'created_at',
        'expired_at',
        'expires_at',
        'id',
        'ip_address',
        'last_activity_at',
        'location',
        'status',
        'user_agent',
        'user_id',
      ].sort(),
    );
    expect((await page(off.auth, off.admin, ''))!.body).not.toContain('<th>Activity</th>');
  });

  it('createAdminListing shows it with { activity: true } only', async () => {
    const { store } = await seeded();
    const withActivity = createAdminListing({ store, basePath: '/staff/sessions', logger: silentLogger, activity: true });
    expect((await withActivity({ viewer: 'ops' })).body).toContain('data-signal="new_country"');
    const without = createAdminListing({ store, basePath: '/staff/sessions', logger: silentLogger });
    expect((await without({ viewer: 'ops' })).body).not.toContain('<th>Activity</th>');
  });
});

describe('the login cap in the history', () => {
  it('a session revoked by JWT_MAX_ACTIVE_SESSIONS gets revoked / max_active_sessions; with the history off nothing is read', async () => {
    const { auth } = await createHarness({ options: { sessionActivity: true, maxActiveSessions: 2 } });
    const first = sidOf(await apiLogin(auth, 'bob'));
    const second = sidOf(await apiLogin(auth, 'bob'));
    const third = sidOf(await apiLogin(auth, 'bob'));
    const kinds = async (sid: string) => (await auth.listActivity('user-bob', sid)).map((entry) => [entry.kind, entry.detail]);
    expect(await kinds(first)).toEqual([
      ['created', null],
      ['revoked', 'max_active_sessions'],
    ]);
    expect(await kinds(second)).toEqual([['created', null]]);
    expect(await kinds(third)).toEqual([['created', null]]);

    const store = new MemorySessionStore();
    let listed = 0;
    const list = store.listActiveSessions.bind(store);
    store.listActiveSessions = (userId, now) => {
      listed += 1;
      return list(userId, now);
    };
    const off = await createHarness({ store, options: { maxActiveSessions: 1 } });
    await apiLogin(off.auth, 'bob');
    await apiLogin(off.auth, 'bob');
    expect(listed).toBe(0);
  });
});
