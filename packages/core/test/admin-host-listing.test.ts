import { describe, expect, it } from 'vitest';
import { createAdminListing } from '../src/admin/host-listing.js';
import { StoreUnavailableError } from '../src/errors/sessauth-error.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { apiLogin, createHarness, silentLogger } from './helpers/sessauth-harness.js';

async function seeded() {
  const store = new MemorySessionStore();
  const { auth } = await createHarness({ store });
  for (let i = 0; i < 3; i++) await apiLogin(auth, i === 0 ? 'alice' : 'bob', { userAgent: `<b>agent ${i}</b>` });
  return store;
}

describe("createAdminListing (behind the host's own admin login)", () => {
  it("renders the listing under the host's path, escaping the viewer too, without a sign-out form", async () => {
    const listing = createAdminListing({ store: await seeded(), basePath: '/staff/sessions/', logger: silentLogger });
    const response = await listing({ query: 'limit=2', viewer: '<i>ops@example.com</i>' });
    expect(response.status).toBe(200);
    const html = response.body!;
    expect(html).toContain('Signed in as <code>&lt;i&gt;ops@example.com&lt;/i&gt;</code>');
    expect(html).toContain('action="/staff/sessions/"');
    expect(html).toMatch(/<a rel="next" href="\/staff\/sessions\/\?limit=2&amp;after=[A-Za-z0-9_-]+">/);
    expect(html).not.toContain('sign-out');
    expect(html).not.toContain('<b>');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('answers JSON for tools', async () => {
    const listing = createAdminListing({ store: await seeded(), basePath: '/staff/sessions', logger: silentLogger });
    const response = await listing({ query: 'format=json&user=user-bob', viewer: 'ops' });
    const body = JSON.parse(response.body!) as { sessions: Array<{ user_id: string }>; next_cursor: string | null };
    expect(body.sessions.map((s) => s.user_id)).toEqual(['user-bob', 'user-bob']);
    expect(body.next_cursor).toBeNull();
  });

  it('answers 400 to a bad query and 503 when the store is down, never throwing', async () => {
    const store = await seeded();
    const listing = createAdminListing({ store, basePath: '/staff/sessions', logger: silentLogger });
    const bad = await listing({ query: 'status=nope', viewer: 'ops' });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.body).not.toContain('sign-in');
    const badJson = await listing({ query: 'limit=x', viewer: 'ops', accept: ['application/json'] });
    expect(JSON.parse(badJson.body!)).toMatchObject({ error_code: 'invalid_request' });
    store.listSessionsForAdmin = () => Promise.reject(new StoreUnavailableError('down'));
    expect((await listing({ viewer: 'ops' })).status).toBe(503);
  });

  it('refuses a base path that is not a plain URL path', () => {
    for (const basePath of ['', 'staff', '/staff sessions', '/a/"b', 'https://x/y']) {
      expect(() => createAdminListing({ store: new MemorySessionStore(), basePath })).toThrow(/basePath/);
    }
  });
});
