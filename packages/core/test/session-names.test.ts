import { describe, expect, it } from 'vitest';
import { SessauthError } from '../src/errors/sessauth-error.js';
import { matchEndpoint as matchRoute } from '../src/endpoints/endpoints.js';
import { NEVER_EXPIRES } from '../src/sessions/create-session.js';
import { sessionNameOf } from '../src/sessions/session-name.js';
import { toPublicSession } from '../src/endpoints/public-session.js';
import type { SessionRecord } from '../src/store/store-port.js';
import type { PublicSession } from '../src/http/wire-types.js';
import { apiLogin, createHarness, sessauthRequest } from './helpers/sessauth-harness.js';

function refused(body: Record<string, unknown>): unknown {
  try {
    return sessionNameOf(body);
  } catch (error) {
    return error instanceof SessauthError ? error.code : error;
  }
}

describe('sessionNameOf', () => {
  it('trims, and accepts 1..64 code points of text', () => {
    expect(sessionNameOf({ name: '  Work laptop\t' })).toBe('Work laptop');
    expect(sessionNameOf({ name: 'x' })).toBe('x');
    expect(sessionNameOf({ name: '😀'.repeat(64) })).toBe('😀'.repeat(64));
    expect(sessionNameOf({ name: 'Ordinateur de Zoë — 家' })).toBe('Ordinateur de Zoë — 家');
  });

  it('refuses anything else with invalid_request', () => {
    for (const name of [
      undefined,
      null,
      1,
      true,
      ['a'],
      {},
      '',
      '   ',
      'x'.repeat(65),
      '😀'.repeat(65),
      'a\u0000b',
      'a\nb',
      'a\u007fb',
      'a\u0085b',
      'a\u2028b',
      'abc\u202e',
      '\u2066x',
      '\udc00x',
    ]) {
      expect(refused({ name }), JSON.stringify(name)).toBe('invalid_request');
    }
  });
});

describe('routing of sessions/{id}/', () => {
  it('DELETE and PATCH are routes; any other method is 405 with both in Allow', () => {
    expect(matchRoute('PATCH', '/auth/sessions/abc/', '/auth')).toEqual({
      kind: 'route',
      route: 'rename-session',
      template: '/sessions/{id}',
      sessionId: 'abc',
    });
    expect(matchRoute('DELETE', '/auth/sessions/abc', '/auth')).toEqual({
      kind: 'route',
      route: 'delete-session',
      template: '/sessions/{id}',
      sessionId: 'abc',
    });
    for (const method of ['GET', 'POST', 'PUT', 'HEAD']) {
      expect(matchRoute(method, '/auth/sessions/abc/', '/auth')).toEqual({ kind: 'method-not-allowed', allow: 'DELETE, PATCH' });
    }
  });
});

describe('toPublicSession', () => {
  const record: SessionRecord = {
    id: 's1',
    userId: 'u1',
    refreshJti: 'j',
    securityStamp: 's',
    createdAt: new Date(0),
    lastActivityAt: new Date(0),
    expiresAt: new Date(86_400_000),
    expiredAt: null,
    ipAddress: null,
    userAgent: null,
    browser: null,
    location: null,
  };

  it('has name (null when unset or absent) and expires_at (null for a session that never ages out)', () => {
    expect(toPublicSession(record, 's1')).toMatchObject({ name: null, expires_at: '1970-01-02T00:00:00.000Z', is_current: true });
    expect(toPublicSession({ ...record, name: 'Phone' }, 'other').name).toBe('Phone');
    expect(toPublicSession({ ...record, expiresAt: NEVER_EXPIRES }, 's1').expires_at).toBeNull();
  });
});

describe('PATCH /auth/sessions/{id}/', () => {
  it("renames the caller's own session, answering its row; the order is 401, 415, 400, 404", async () => {
    const { auth, store } = await createHarness();
    const token = await apiLogin(auth, 'alice');
    await apiLogin(auth, 'bob');
    const [mine] = await store.listActiveSessions('user-alice', new Date());
    const [bobs] = await store.listActiveSessions('user-bob', new Date());
    const patch = async (id: string, body: string, headers: Record<string, string>) => {
      const response = await auth.handle(sessauthRequest({ method: 'PATCH', path: `/auth/sessions/${id}/`, headers, body }));
      return { status: response!.status, body: JSON.parse(response!.body!) as Record<string, unknown> };
    };
    const json = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

    expect((await patch(mine!.id, 'x', { 'content-type': 'text/plain' })).status).toBe(401);
    expect(await patch(mine!.id, 'x', { ...json, 'content-type': 'text/plain' })).toMatchObject({ status: 415 });
    expect(await patch(bobs!.id, '{"name": ""}', json)).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
    expect(await patch(bobs!.id, '{"name": "Mine"}', json)).toMatchObject({ status: 404, body: { error_code: 'session_not_found' } });
    expect((await store.findSession(bobs!.id))?.name).toBeNull();

    const renamed = await patch(mine!.id, '{"name": " Desk "}', json);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: mine!.id, name: 'Desk', is_current: true } satisfies Partial<PublicSession>);
    expect((await store.findSession(mine!.id))?.name).toBe('Desk');
  });
});
