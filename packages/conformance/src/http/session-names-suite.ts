import type { PublicSession } from '@sessauth/core';
import { expect } from 'vitest';
import { expectError } from './expectations.js';
import type { HttpClient, HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** PATCH {prefix}/sessions/{id}/ with a JSON body (or a raw one with `contentType`). */
function patch(client: HttpClient, path: string, bearer: string | undefined, body: unknown, contentType?: string): Promise<HttpResult> {
  return client.send('PATCH', path, {
    ...(typeof body === 'string' && contentType !== undefined ? { body, contentType } : { json: body }),
    ...(bearer === undefined ? {} : { bearer }),
  });
}

/** Device names: `PATCH {prefix}/sessions/{id}/ {"name"}`, and `name` / `expires_at` in the list. */
export function sessionNamesSuite(kit: SuiteKit): void {
  kit.test('sessions/rename', "names the caller's own sessions (trimmed); the list shows name and expires_at", async () => {
    const app = await kit.start();
    const laptop = await app.login('alice');
    const phone = await app.login('alice');
    const renamed = await patch(laptop.client, app.at(`/sessions/${phone.sessionId}/`), laptop.access, { name: '  Work phone  ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: phone.sessionId, name: 'Work phone', is_current: false });
    const own = await patch(laptop.client, app.at(`/sessions/${laptop.sessionId}`), laptop.access, { name: 'Laptop 💻 Zürich' });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ id: laptop.sessionId, name: 'Laptop 💻 Zürich', is_current: true });

    const list = await phone.client.get(app.at('/sessions/'), { bearer: phone.access });
    const rows = new Map((list.body as PublicSession[]).map((row) => [row.id, row]));
    expect(rows.get(phone.sessionId)?.name).toBe('Work phone');
    expect(rows.get(laptop.sessionId)?.name).toBe('Laptop 💻 Zürich');
    const bob = await app.login('bob');
    const bobs = (await bob.client.get(app.at('/sessions/'), { bearer: bob.access })).body as PublicSession[];
    expect(bobs.map((row) => row.name)).toEqual([null]);
    for (const row of [...rows.values(), ...bobs]) {
      expect(row.expires_at).toMatch(ISO_UTC);
      // The default session lifetime, 14 days after the login.
      expect(Date.parse(String(row.expires_at)) - Date.parse(row.created_at)).toBe(14 * 86_400_000);
    }
    // The name is kept by the session across a refresh.
    expect((await app.refresh(phone.client, phone.refresh)).status).toBe(200);
    expect((await app.store.findSession(phone.sessionId))?.name).toBe('Work phone');
  });

  kit.test('sessions/rename-not-found', "401 without a token; another user's, a revoked, an unknown and a malformed id: the same 404", async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const gone = await app.login('alice');
    const bob = await app.login('bob');
    expect((await gone.client.post(app.at('/logout/'), { bearer: gone.access })).status).toBe(200);
    const unauthenticated = await patch(app.client(), app.at(`/sessions/${alice.sessionId}/`), undefined, { name: 'x' });
    expect(unauthenticated.status, unauthenticated.text).toBe(401);
    const badBodyNoToken = await patch(app.client(), app.at(`/sessions/${alice.sessionId}/`), undefined, 'not json', 'text/plain');
    expect(badBodyNoToken.status, badBodyNoToken.text).toBe(401);
    const answers: string[] = [];
    for (const id of [bob.sessionId, gone.sessionId, 'no-such-session-id', 'x'.repeat(300), '%F0%9F%98%80', 'a.b']) {
      const result = await patch(alice.client, app.at(`/sessions/${id}/`), alice.access, { name: 'Mine now' });
      expectError(result, 404, 'session_not_found');
      answers.push(result.text);
    }
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
    expect((await app.store.findSession(bob.sessionId))?.name).toBeNull();
    expect((await app.store.findSession(gone.sessionId))?.name).toBeNull();
  });

  kit.test('sessions/rename-bad-input', 'JSON only (415), and a name that is not 1..64 characters of text is 400 invalid_request', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const path = app.at(`/sessions/${alice.sessionId}/`);
    expectError(await patch(alice.client, path, alice.access, 'name=Laptop', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expectError(await patch(alice.client, path, alice.access, '{"name":"Laptop"}', 'text/plain'), 415, 'unsupported_media_type');
    expectError(await patch(alice.client, path, alice.access, '{"name":', 'application/json'), 400, 'invalid_request');
    const bad: unknown[] = [
      {},
      { name: null },
      { name: 42 },
      { name: ['Laptop'] },
      { name: '' },
      { name: ' \t ' },
      { name: 'x'.repeat(65) },
      { name: '😀'.repeat(65) },
      { name: 'bell\u0007' },
      { name: 'two\nlines' },
      { name: 'nul\u0000' },
      { name: 'rtl\u202eflip' },
      { name: '\ud800lone' },
      ['Laptop'],
      'Laptop',
    ];
    for (const body of bad) expectError(await patch(alice.client, path, alice.access, body), 400, 'invalid_request');
    expect((await app.store.findSession(alice.sessionId))?.name).toBeNull();
    // 64 characters (astral ones count once) pass.
    const longest = `${'😀'.repeat(60)}abcd`;
    const ok = await patch(alice.client, path, alice.access, { name: longest });
    expect(ok.status, ok.text).toBe(200);
    expect((await app.store.findSession(alice.sessionId))?.name).toBe(longest);
  });

  kit.test('sessions/rename-invisible', 'a name with nothing visible, a format character or a stack of combining marks is the same 400', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    const path = app.at(`/sessions/${alice.sessionId}/`);
    const invisible = [
      '\u200b', // zero-width space
      'a\u200bb',
      '\u200e\u200f', // LRM, RLM
      'Phone\u061c', // Arabic letter mark
      'Lap\ufefftop', // BOM
      'Laptop\u{e0041}\u{e0042}', // tag characters
      '\u3164', // Hangul filler
      '\u115f\u1160', // Hangul choseong and jungseong fillers
      '\uffa0 \u3164',
      '\u2800', // braille blank
      'Zalgo\u0301\u0302\u0303\u0304\u0305',
      '\u0301\u0302',
      '\u{10ffff}', // unassigned (a noncharacter)
      '\u0378', // unassigned in the Greek block
    ];
    for (const name of invisible) {
      const answer = await patch(alice.client, path, alice.access, { name });
      expectError(answer, 400, 'invalid_request');
    }
    expect((await app.store.findSession(alice.sessionId))?.name).toBeNull();
    // What a person writes still passes: accents, four stacked marks at most, an emoji joined by ZWJ.
    for (const name of ['Café Zürich', 'ṩ̈', 'Work 👩‍💻 laptop', 'Flag 🇨🇭']) {
      const answer = await patch(alice.client, path, alice.access, { name });
      expect(answer.status, `${JSON.stringify(name)}: ${answer.text}`).toBe(200);
    }
  });

  kit.test(
    'sessions/rename-cookie-transport',
    'in cookie transport PATCH is Bearer-authenticated like DELETE: no CSRF token needed, no cookie touched',
    async () => {
      const app = await kit.start({ refreshTokenTransport: 'cookie' });
      const alice = await app.login('alice');
      const result = await patch(alice.client, app.at(`/sessions/${alice.sessionId}/`), alice.access, { name: 'Browser' });
      expect(result.status, result.text).toBe(200);
      expect(result.setCookies).toEqual([]);
      expect((await app.refresh(alice.client)).status).toBe(200);
    },
  );

  kit.test('sessions/method-not-allowed', 'any other method on sessions/{id}/ is 405 with Allow: DELETE, PATCH', async () => {
    const app = await kit.start();
    const alice = await app.login('alice');
    for (const method of ['GET', 'POST', 'PUT']) {
      const result = await alice.client.send(method, app.at(`/sessions/${alice.sessionId}/`), { bearer: alice.access });
      expectError(result, 405, 'method_not_allowed');
      expect(result.headers.get('allow')).toBe('DELETE, PATCH');
    }
    expect((await app.store.findSession(alice.sessionId))?.expiredAt).toBeNull();
  });
}
