import { describe, expect, it } from 'vitest';
import type { SessauthResponse } from '../src/http/sessauth-request.js';
import { apiLogin, cookiesSet, createHarness, sessauthRequest, setCookieLine } from './helpers/sessauth-harness.js';

const PREFIX = '/admin/sessauth/session';
const ORIGIN = 'http://admin.test';
const HOST = 'admin.test';

type Auth = Awaited<ReturnType<typeof createHarness>>['auth'];

/** What a browser holds after opening the sign-in form: the csrftoken cookie and the hidden field. */
async function openForm(auth: Auth): Promise<{ cookie: string; token: string }> {
  const response = await auth.handle(sessauthRequest({ path: `${PREFIX}/sign-in/`, headers: { host: HOST } }));
  expect(response?.status).toBe(200);
  const token = /name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"/.exec(response!.body!)![1]!;
  return { cookie: `csrftoken=${cookiesSet(response!).get('csrftoken')!}`, token };
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  return sessauthRequest({
    method: 'POST',
    path,
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function signIn(auth: Auth, username: string, password: string, extra: Record<string, string> = {}): Promise<SessauthResponse> {
  const form = await openForm(auth);
  const response = await auth.handle(
    postForm(`${PREFIX}/sign-in/`, { csrfmiddlewaretoken: form.token, username, password }, { cookie: form.cookie, ...extra }),
  );
  return response!;
}

async function sessionCount(store: Awaited<ReturnType<typeof createHarness>>['store']): Promise<number> {
  return (await store.listSessionsForAdmin({ now: new Date(), limit: 100 })).sessions.length;
}

describe('admin browser sign-in', () => {
  it('signs an admin in: 303 to the listing with an HttpOnly, Strict, prefix-scoped admin cookie', async () => {
    const { auth, store } = await createHarness();
    const response = await signIn(auth, 'alice', 'alice-password', { 'user-agent': 'Browser/1.0' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe(`${PREFIX}/`);
    const line = setCookieLine(response, 'sessauth_admin')!;
    expect(line).toMatch(new RegExp(`; Path=${PREFIX}/; Max-Age=300; HttpOnly; Secure; SameSite=Strict$`));
    // The CSRF secret is kept at sign-in, as at login: an SPA sharing the csrftoken cookie keeps working.
    expect(cookiesSet(response).has('csrftoken')).toBe(false);
    const sessions = (await store.listSessionsForAdmin({ now: new Date(), limit: 10 })).sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ userId: 'user-alice', userAgent: 'Browser/1.0' });

    const page = await auth.handle(
      sessauthRequest({ path: `${PREFIX}/`, headers: { cookie: `sessauth_admin=${cookiesSet(response).get('sessauth_admin')}` } }),
    );
    expect(page?.status).toBe(200);
    expect(page?.body).toContain('Signed in as <code>user-alice</code>');
    expect(page?.body).toContain(`action="${PREFIX}/sign-out/"`);
  });

  it('refuses a user who is not an admin with 403 and creates no session', async () => {
    const { auth, store } = await createHarness();
    const response = await signIn(auth, 'bob', 'bob-password');
    expect(response.status).toBe(403);
    expect(response.body).toContain('This account is not an administrator.');
    expect(setCookieLine(response, 'sessauth_admin')).toBeUndefined();
    expect(await sessionCount(store)).toBe(0);
  });

  it('shows the form again on a wrong password, keeping the (escaped) username', async () => {
    const { auth, store } = await createHarness();
    const response = await signIn(auth, '"><b>alice', 'nope');
    expect(response.status).toBe(401);
    expect(response.body).toContain('Wrong username or password.');
    expect(response.body).toContain('value="&quot;&gt;&lt;b&gt;alice"');
    expect(await sessionCount(store)).toBe(0);
  });

  it('refuses a post without the CSRF token, with a wrong one, or from a foreign origin (403, no session)', async () => {
    const { auth, store } = await createHarness();
    const form = await openForm(auth);
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [{ username: 'alice', password: 'alice-password' }, { cookie: form.cookie }],
      [{ csrfmiddlewaretoken: form.token, username: 'alice', password: 'alice-password' }, {}],
      [{ csrfmiddlewaretoken: 'x'.repeat(64), username: 'alice', password: 'alice-password' }, { cookie: form.cookie }],
      [
        { csrfmiddlewaretoken: form.token, username: 'alice', password: 'alice-password' },
        { cookie: form.cookie, origin: 'http://evil.test' },
      ],
    ];
    for (const [fields, headers] of cases) {
      const response = await auth.handle(postForm(`${PREFIX}/sign-in/`, fields, headers));
      expect(response?.status).toBe(403);
      expect(response?.body).toContain('The form had expired.');
    }
    expect(await sessionCount(store)).toBe(0);
  });

  it('takes only form posts (415) and refuses repeated fields (400)', async () => {
    const { auth } = await createHarness();
    const form = await openForm(auth);
    const json = await auth.handle(postForm(`${PREFIX}/sign-in/`, {}, { cookie: form.cookie, 'content-type': 'application/json' }));
    expect(json?.status).toBe(415);
    const twice = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: `${PREFIX}/sign-in/`,
        headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie },
        body: `csrfmiddlewaretoken=${form.token}&username=alice&username=bob&password=alice-password`,
      }),
    );
    expect(twice?.status).toBe(400);
  });

  it('applies the login throttle (shared with POST /auth/login/)', async () => {
    const { auth } = await createHarness({ options: { loginThrottleRate: '2/min' } });
    expect((await signIn(auth, 'alice', 'wrong')).status).toBe(401);
    await apiLogin(auth, 'bob');
    const third = await signIn(auth, 'alice', 'alice-password');
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.body).toContain('Too many sign-in attempts.');
  });
});

describe('admin cookie and sign-out', () => {
  async function signedIn() {
    const harness = await createHarness();
    const response = await signIn(harness.auth, 'alice', 'alice-password');
    return { ...harness, cookie: `sessauth_admin=${cookiesSet(response).get('sessauth_admin')!}` };
  }

  it("sign-out ends only the admin's own session and drops the cookie", async () => {
    const { auth, store, cookie } = await signedIn();
    await apiLogin(auth, 'bob');
    const form = await openForm(auth);
    const response = await auth.handle(postForm(`${PREFIX}/sign-out/`, { csrfmiddlewaretoken: form.token }, { cookie: `${cookie}; ${form.cookie}` }));
    expect(response?.status).toBe(303);
    expect(setCookieLine(response!, 'sessauth_admin')).toMatch(/^sessauth_admin=; Path=\/admin\/sessauth\/session\/; Max-Age=0;/);
    const sessions = (await store.listSessionsForAdmin({ now: new Date(), limit: 10 })).sessions;
    expect(sessions.map((s) => [s.userId, s.expiredAt === null])).toEqual([
      ['user-bob', true],
      ['user-alice', false],
    ]);
    const after = await auth.handle(sessauthRequest({ path: `${PREFIX}/`, headers: { cookie } }));
    expect(after?.status).toBe(401);
    expect(after?.body).toContain('Your sign-in has expired or was revoked.');
    expect(setCookieLine(after!, 'sessauth_admin')).toContain('Max-Age=0');
  });

  it('sign-out needs the CSRF token too', async () => {
    const { auth, store, cookie } = await signedIn();
    const response = await auth.handle(postForm(`${PREFIX}/sign-out/`, {}, { cookie }));
    expect(response?.status).toBe(403);
    expect((await store.listSessionsForAdmin({ now: new Date(), limit: 10, status: 'active' })).sessions).toHaveLength(1);
  });

  it('fails closed on a repeated or malformed admin cookie (401)', async () => {
    const { auth, cookie } = await signedIn();
    for (const header of [`${cookie}; ${cookie}`, 'sessauth_admin=a b', 'sessauth_admin=']) {
      const response = await auth.handle(sessauthRequest({ path: `${PREFIX}/`, query: 'format=json', headers: { cookie: header } }));
      expect([header, response?.status]).toEqual([header, 401]);
    }
  });

  it('prefers an Authorization header over the cookie', async () => {
    const { auth, cookie } = await signedIn();
    const bob = await apiLogin(auth, 'bob');
    const response = await auth.handle(
      sessauthRequest({ path: `${PREFIX}/`, query: 'format=json', headers: { cookie, authorization: `Bearer ${bob}` } }),
    );
    expect(response?.status).toBe(403);
  });
});
