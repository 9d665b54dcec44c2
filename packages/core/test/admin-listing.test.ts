import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/errors/sessauth-error.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { SessionStore } from '../src/store/store-port.js';
import type { AdminSessionJson } from '../src/admin/session-view.js';
import { apiLogin, createHarness, sessauthRequest } from './helpers/sessauth-harness.js';

const PREFIX = '/admin/sessauth/session';

interface JsonPage {
  sessions: AdminSessionJson[];
  next_cursor: string | null;
}

async function setup() {
  const harness = await createHarness();
  const alice = await apiLogin(harness.auth, 'alice');
  const bob = await apiLogin(harness.auth, 'bob');
  return { ...harness, alice, bob };
}

function get(query: string, headers: Record<string, string> = {}, path = `${PREFIX}/`) {
  return sessauthRequest({ path, query, headers });
}

async function jsonPage(auth: Awaited<ReturnType<typeof setup>>['auth'], token: string, query: string): Promise<JsonPage> {
  const response = await auth.handle(get(query, { authorization: `Bearer ${token}` }));
  expect(response?.status).toBe(200);
  expect(response?.headers['content-type']).toBe('application/json');
  return JSON.parse(response!.body!) as JsonPage;
}

describe('admin listing: who may see it', () => {
  it('answers 401 without a session: JSON for tools, the sign-in form for a browser', async () => {
    const { auth } = await setup();
    const json = await auth.handle(get('format=json'));
    expect(json?.status).toBe(401);
    expect(JSON.parse(json!.body!)).toMatchObject({ error_code: 'invalid_token' });
    const html = await auth.handle(get('', { accept: 'text/html' }));
    expect(html?.status).toBe(401);
    expect(html?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html?.body).toContain(`action="${PREFIX}/sign-in/"`);
    expect(html?.body).not.toContain('<table');
  });

  it('answers 403 to a signed-in user the host does not call an admin', async () => {
    const { auth, bob } = await setup();
    const json = await auth.handle(get('format=json', { authorization: `Bearer ${bob}` }));
    expect(json?.status).toBe(403);
    expect(JSON.parse(json!.body!)).toMatchObject({ error_code: 'forbidden' });
    const html = await auth.handle(get('', { authorization: `Bearer ${bob}` }));
    expect(html?.status).toBe(403);
    expect(html?.body).toContain('not an administrator');
    expect(html?.body).not.toContain('user-alice');
  });

  it('answers 401 once the admin session is revoked (nothing is cached)', async () => {
    const { auth, store, alice } = await setup();
    await store.expireAllForUser('user-alice', new Date());
    const response = await auth.handle(get('format=json', { authorization: `Bearer ${alice}` }));
    expect(response?.status).toBe(401);
    expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'session_expired' });
  });

  it('checks the caller before reading the query: a bad query from a stranger is still 401', async () => {
    const { auth } = await setup();
    expect((await auth.handle(get('status=bogus&format=json')))?.status).toBe(401);
  });
});

describe('admin listing: what an admin sees', () => {
  it("lists every user's sessions newest first, without secrets", async () => {
    const { auth, alice } = await setup();
    const page = await jsonPage(auth, alice, 'format=json');
    expect(page.sessions.map((s) => s.user_id)).toEqual(['user-bob', 'user-alice']);
    expect(page.next_cursor).toBeNull();
    const [row] = page.sessions;
    expect(Object.keys(row!).sort()).toEqual([
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
    ]);
    expect(row).toMatchObject({ status: 'active', expired_at: null, ip_address: '127.0.0.1' });
  });

  it('filters by user and by status, and shows when a session was revoked', async () => {
    const { auth, alice, bob } = await setup();
    await auth.handle(sessauthRequest({ method: 'POST', path: '/auth/logout/', headers: { authorization: `Bearer ${bob}` } }));
    const bobs = await jsonPage(auth, alice, 'format=json&user=user-bob');
    expect(bobs.sessions).toHaveLength(1);
    expect(bobs.sessions[0]).toMatchObject({ user_id: 'user-bob', status: 'revoked' });
    expect(bobs.sessions[0]!.expired_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const active = await jsonPage(auth, alice, 'format=json&status=active');
    expect(active.sessions.map((s) => s.user_id)).toEqual(['user-alice']);
    const revoked = await jsonPage(auth, alice, 'format=json&status=revoked');
    expect(revoked.sessions.map((s) => s.user_id)).toEqual(['user-bob']);
    const all = await jsonPage(auth, alice, 'format=json&status=all&user=');
    expect(all.sessions).toHaveLength(2);
  });

  it('pages with a keyset cursor until every session was shown exactly once', async () => {
    const { auth, alice } = await setup();
    for (let i = 0; i < 5; i++) await apiLogin(auth, 'bob', { userAgent: `agent-${i}` });
    const seen: AdminSessionJson[] = [];
    let query = 'format=json&limit=3';
    for (let guard = 0; guard < 10; guard++) {
      const page = await jsonPage(auth, alice, query);
      expect(page.sessions.length).toBeLessThanOrEqual(3);
      seen.push(...page.sessions);
      if (page.next_cursor === null) break;
      query = `format=json&limit=3&after=${encodeURIComponent(page.next_cursor)}`;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((s) => s.id)).size).toBe(7);
    const keys = seen.map((s) => `${s.created_at}|${s.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('renders the HTML page with next-page links that keep the filters', async () => {
    const { auth, alice } = await setup();
    for (let i = 0; i < 3; i++) await apiLogin(auth, 'bob');
    const response = await auth.handle(get('user=user-bob&limit=2', { authorization: `Bearer ${alice}` }));
    expect(response?.status).toBe(200);
    const html = response!.body!;
    expect(html.match(/<tr data-session-id=/g)).toHaveLength(2);
    const next = /<a rel="next" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    expect(next).toMatch(new RegExp(`^${PREFIX}/\\?user=user-bob&limit=2&after=[A-Za-z0-9_-]+$`));
    // A Bearer caller has no admin cookie, so no sign-out form is offered.
    expect(html).not.toContain('sign-out');
  });

  it('refuses malformed queries with 400 invalid_request', async () => {
    const { auth, alice } = await setup();
    for (const query of [
      'status=bogus',
      'limit=0',
      'limit=201',
      'limit=1e2',
      'limit=-1',
      'after=not-a-cursor',
      'user=a&user=b',
      'format=xml',
      `user=${'x'.repeat(300)}`,
      'user=%00',
      `q=${'x'.repeat(3000)}`,
    ]) {
      const response = await auth.handle(
        get(`${query}&format=json`.replace('format=xml&format=json', 'format=xml'), { authorization: `Bearer ${alice}` }),
      );
      expect([query, response?.status]).toEqual([query, 400]);
      if (response?.headers['content-type'] === 'application/json') {
        expect(JSON.parse(response.body!)).toMatchObject({ error_code: 'invalid_request' });
      }
    }
  });

  it('answers 503 when the store is down (fail closed, no page of nothing)', async () => {
    const store = new MemorySessionStore();
    const { auth } = await createHarness({ store });
    const token = await apiLogin(auth, 'alice');
    store.listSessionsForAdmin = () => Promise.reject(new StoreUnavailableError('down'));
    const response = await auth.handle(get('format=json', { authorization: `Bearer ${token}` }));
    expect(response?.status).toBe(503);
    expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'service_unavailable' });
  });
});

describe('admin listing: safe HTML', () => {
  it('escapes every stored value: an attacker-controlled User-Agent is shown as text', async () => {
    const { auth, alice } = await setup();
    await apiLogin(auth, 'bob', { userAgent: '<script>alert(1)</script>"\'><img src=x onerror=alert(2)>' });
    const response = await auth.handle(get('', { authorization: `Bearer ${alice}` }));
    const html = response!.body!;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toMatch(/<script|<img|onerror=alert\(2\)>/i);
  });

  it("sends a strict CSP whose only allowance is the page's own stylesheet", async () => {
    const { auth, alice } = await setup();
    const response = await auth.handle(get('', { authorization: `Bearer ${alice}` }));
    const csp = response!.headers['content-security-policy']!;
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(csp).not.toContain('unsafe');
    const style = /<style>([\s\S]*?)<\/style>/.exec(response!.body!)![1]!;
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(response!.headers).toMatchObject({ 'x-frame-options': 'DENY', 'cache-control': 'no-store', 'referrer-policy': 'same-origin' });
  });
});

describe('admin listing: routing', () => {
  it('serves the prefix with or without the trailing slash and leaves look-alike paths to the host', async () => {
    const { auth, alice } = await setup();
    const headers = { authorization: `Bearer ${alice}` };
    expect((await auth.handle(get('format=json', headers, PREFIX)))?.status).toBe(200);
    expect(await auth.handle(get('', headers, `${PREFIX}x/`))).toBeNull();
  });

  it('allows no write method on the listing and 404s unknown admin paths', async () => {
    const { auth, alice } = await setup();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await auth.handle(sessauthRequest({ method, path: `${PREFIX}/`, headers: { authorization: `Bearer ${alice}` } }));
      expect(response?.status).toBe(405);
      expect(response?.headers.allow).toBe('GET');
    }
    const unknown = await auth.handle(
      sessauthRequest({ method: 'DELETE', path: `${PREFIX}/some-id/`, headers: { authorization: `Bearer ${alice}` } }),
    );
    expect(unknown?.status).toBe(404);
  });

  it('serves a custom admin prefix', async () => {
    const { auth } = await createHarness({ options: { adminPrefix: '/ops/sessions' } });
    const token = await apiLogin(auth, 'alice');
    expect(
      (await auth.handle(sessauthRequest({ path: '/ops/sessions/', query: 'format=json', headers: { authorization: `Bearer ${token}` } })))?.status,
    ).toBe(200);
    expect(await auth.handle(sessauthRequest({ path: `${PREFIX}/`, headers: { authorization: `Bearer ${token}` } }))).toBeNull();
  });
});

describe('the admin listing is opt-in', () => {
  it('without `admin` its paths are not ours: the host gets them, and a default install has one login endpoint', async () => {
    const { auth } = await createHarness({ admin: false });
    for (const path of ['/admin/sessauth/session/', '/admin/sessauth/session/sign-in/']) {
      expect(auth.handles(path)).toBe(false);
      expect(await auth.handle(sessauthRequest({ method: 'GET', path }))).toBeNull();
    }
    expect(auth.handles('/auth/login/')).toBe(true);
  });

  it('with `admin` it is served', async () => {
    const { auth } = await createHarness();
    expect(auth.handles('/admin/sessauth/session/')).toBe(true);
    expect((await auth.handle(sessauthRequest({ method: 'GET', path: '/admin/sessauth/session/sign-in/' })))?.status).toBe(200);
  });

  it('refuses at start-up a store without listSessionsForAdmin, naming it', async () => {
    const store = new MemorySessionStore();
    const bare: SessionStore = {
      createSession: (input) => store.createSession(input),
      findSession: (id) => store.findSession(id),
      rotateRefresh: (input) => store.rotateRefresh(input),
      expireSession: (id, userId, now) => store.expireSession(id, userId, now),
      expireAllForUser: (userId, now) => store.expireAllForUser(userId, now),
      listActiveSessions: (userId, now) => store.listActiveSessions(userId, now),
      touchSession: (id, now) => store.touchSession(id, now),
      renameSession: (id, userId, name, now) => store.renameSession(id, userId, name, now),
      purgeExpired: (now) => store.purgeExpired(now),
    };
    await expect(createHarness({ store: bare as never })).rejects.toThrow(/listSessionsForAdmin/);
    const { auth } = await createHarness({ store: bare as never, admin: false });
    expect(auth.handles('/auth/login/')).toBe(true);
  });
});
