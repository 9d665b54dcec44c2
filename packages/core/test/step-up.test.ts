import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { IntegrationError, SessauthError } from '../src/errors/sessauth-error.js';
import type { StepUpEvent } from '../src/events/session-events.js';
import type { SessauthOptions } from '../src/options/options.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { SessionStore } from '../src/store/store-port.js';
import { sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

interface User {
  readonly id: string;
}

function manualClock() {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => new Date(ms), advance: (seconds: number) => void (ms += seconds * 1000) };
}

async function engine(options: Partial<SessauthOptions> = {}, store: SessionStore = new MemorySessionStore()) {
  const alice: User = { id: 'user-alice' };
  const clock = manualClock();
  const stepUps: StepUpEvent[] = [];
  const auth = await createSessauth<User>({
    // Access tokens outlive the test's clock jumps: freshness, not token expiry, is under test.
    options: {
      secretKey: 'an-hmac-secret-of-exactly-32-by!',
      issuer: 'https://issuer.test',
      audience: 'aud',
      accessTokenExpireSeconds: 86_400,
      ...options,
    },
    store,
    users: { findById: async (id) => (id === alice.id ? alice : null), idOf: (user) => user.id, securityStamp: () => 'stamp' },
    authenticator: async () => alice,
    clock,
    logger: silentLogger,
    events: { step_up: (event) => void stepUps.push(event) },
  });
  const guard = (token: string) => auth.authenticate({ authorization: [`Bearer ${token}`] });
  return { auth, store, alice, clock, stepUps, guard };
}

function challengeOf(error: unknown): { code: string; header: string | undefined; status: number } {
  if (!(error instanceof SessauthError)) throw error;
  const response = { status: error.status, header: error.wwwAuthenticate, code: error.code };
  return response;
}

describe('freshness (RFC 9470) in the core', () => {
  it('a session made without amr/acr records authTime = creation, amr [] and no acr; its tokens carry no auth_time', async () => {
    const { auth, store, alice } = await engine();
    const created = await auth.createSessionFor(alice.id);
    const row = await store.findSession(created.session_id);
    expect(row).toMatchObject({ amr: [], acr: null });
    expect(row?.authTime).toEqual(row?.createdAt);
    const claims = decodeJwt(created.access_token);
    expect(claims.auth_time).toBeUndefined();
    expect(claims.acr).toBeUndefined();
  });

  it('createSessionFor with amr and acr records them; the token carries auth_time and acr', async () => {
    const { auth, store, alice, clock } = await engine();
    const created = await auth.createSessionFor(alice.id, { amr: ['hwk', 'user'], acr: 'urn:example:aal3' });
    const row = await store.findSession(created.session_id);
    expect(row).toMatchObject({ amr: ['hwk', 'user'], acr: 'urn:example:aal3' });
    const claims = decodeJwt(created.access_token);
    expect(claims.auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
    expect(claims.acr).toBe('urn:example:aal3');
  });

  it('requireFresh answers a stale session with 401 insufficient_user_authentication and the RFC 9470 challenge', async () => {
    const { auth, alice, clock, guard } = await engine();
    const created = await auth.createSessionFor(alice.id, { amr: ['pwd'] });
    clock.advance(600);
    auth.assertFresh(await guard(created.access_token), { maxAgeSeconds: 600 });
    clock.advance(1);
    const context = await guard(created.access_token);
    let thrown: unknown;
    try {
      auth.assertFresh(context, { maxAgeSeconds: 600 });
    } catch (error) {
      thrown = error;
    }
    expect(challengeOf(thrown)).toEqual({
      status: 401,
      code: 'insufficient_user_authentication',
      header: 'Bearer error="insufficient_user_authentication", error_description="More recent authentication is required", max_age="600"',
    });
    const response = auth.errorResponse(thrown);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(challengeOf(thrown).header);
    expect(JSON.parse(response.body!)).toMatchObject({ error_code: 'insufficient_user_authentication' });
  });

  it('an acr rule refuses a session without that acr and names acr_values', async () => {
    const { auth, alice, guard } = await engine();
    const weak = await auth.createSessionFor(alice.id, { amr: ['pwd'] });
    const strong = await auth.createSessionFor(alice.id, { amr: ['hwk'], acr: 'urn:example:aal3' });
    const rule = { acr: ['urn:example:aal3', 'urn:example:aal2'] };
    auth.assertFresh(await guard(strong.access_token), rule);
    const weakContext = await guard(weak.access_token);
    expect(() => auth.assertFresh(weakContext, rule)).toThrow(SessauthError);
    try {
      auth.assertFresh(weakContext, rule);
    } catch (error) {
      expect(challengeOf(error).header).toBe(
        'Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="urn:example:aal3 urn:example:aal2"',
      );
    }
  });

  it('a malformed rule is an IntegrationError (a programmer error), never a client answer', async () => {
    const { auth, alice, guard } = await engine();
    const context = await guard((await auth.createSessionFor(alice.id)).access_token);
    for (const rule of [{}, { maxAgeSeconds: -1 }, { maxAgeSeconds: 1.5 }, { acr: 'has space' }, { acr: 'quo"te' }, { acr: [] }]) {
      expect(() => auth.assertFresh(context, rule as never), JSON.stringify(rule)).toThrow(IntegrationError);
    }
  });

  it('auth.stepUp raises auth_time on the same session, records amr/acr, fires step_up and returns a token carrying them', async () => {
    const { auth, store, alice, clock, stepUps, guard } = await engine();
    const created = await auth.createSessionFor(alice.id, { amr: ['pwd'] });
    clock.advance(3600);
    const stepped = await auth.stepUp(alice.id, created.session_id, { amr: ['otp'], acr: 'urn:example:mfa' });
    const row = await store.findSession(created.session_id);
    expect(row?.authTime).toEqual(clock.now());
    expect(row).toMatchObject({ amr: ['otp'], acr: 'urn:example:mfa', refreshJti: (await store.findSession(created.session_id))?.refreshJti });
    const claims = decodeJwt(stepped.access_token);
    expect(claims).toMatchObject({ sid: created.session_id, auth_time: Math.floor(clock.now().getTime() / 1000), acr: 'urn:example:mfa' });
    auth.assertFresh(await guard(stepped.access_token), { maxAgeSeconds: 60, acr: 'urn:example:mfa' });
    // The old access token sees the raised freshness too: it is read from the session row.
    auth.assertFresh(await guard(created.access_token), { maxAgeSeconds: 60 });
    await auth.eventsSettled();
    expect(stepUps).toEqual([{ userId: alice.id, sessionId: created.session_id, amr: ['otp'], acr: 'urn:example:mfa' }]);
  });

  it('a refresh keeps auth_time and carries it once the session stepped up', async () => {
    const { auth, alice, clock } = await engine();
    const created = await auth.createSessionFor(alice.id, { amr: ['pwd'] });
    clock.advance(100);
    await auth.stepUp(alice.id, created.session_id, { amr: ['otp'] });
    const steppedAt = Math.floor(clock.now().getTime() / 1000);
    clock.advance(500);
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: created.refresh_token }),
      }),
    );
    expect(response?.status).toBe(200);
    const claims = decodeJwt((JSON.parse(response!.body!) as { access_token: string }).access_token);
    expect(claims.auth_time).toBe(steppedAt);
    expect(claims.acr).toBeUndefined();
  });

  it('stepUp refuses another user, an ended session and bad facts', async () => {
    const { auth, alice } = await engine();
    const created = await auth.createSessionFor(alice.id);
    await expect(auth.stepUp('someone-else', created.session_id, { amr: ['otp'] })).rejects.toMatchObject({ code: 'session_expired' });
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['no spaces allowed'] })).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['otp'], acr: 'a"b' })).rejects.toBeInstanceOf(IntegrationError);
    // The longest accepted (8 values of 32 characters, an acr of 255) fit every store; one more is refused.
    const longest = Array.from({ length: 8 }, (_, index) => `${index}`.padEnd(32, 'x'));
    await expect(auth.stepUp(alice.id, created.session_id, { amr: longest, acr: 'a'.repeat(255) })).resolves.toHaveProperty('access_token');
    await expect(auth.stepUp(alice.id, created.session_id, { amr: [...longest, 'pwd'] })).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['x'.repeat(33)] })).rejects.toBeInstanceOf(IntegrationError);
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['otp'], acr: 'a'.repeat(256) })).rejects.toBeInstanceOf(IntegrationError);
    await auth.revokeSession(alice.id, created.session_id);
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['otp'] })).rejects.toMatchObject({ code: 'session_expired' });
  });

  it('a store without recordStepUp: stepUp is an IntegrationError and reauthenticate answers 404 not_found', async () => {
    const memory = new MemorySessionStore();
    // Every operation but the optional one, as an older store has them.
    const store: SessionStore = {
      createSession: (input) => memory.createSession(input),
      findSession: (id) => memory.findSession(id),
      listActiveSessions: (userId, now) => memory.listActiveSessions(userId, now),
      rotateRefresh: (input) => memory.rotateRefresh(input),
      expireSession: (id, userId, now) => memory.expireSession(id, userId, now),
      expireAllForUser: (userId, now, options) => memory.expireAllForUser(userId, now, options),
      renameSession: (id, userId, name, now) => memory.renameSession(id, userId, name, now),
      touchSession: (id, now) => memory.touchSession(id, now),
      purgeExpired: (now) => memory.purgeExpired(now),
    };
    const { auth, alice } = await engine({}, store);
    const created = await auth.createSessionFor(alice.id);
    await expect(auth.stepUp(alice.id, created.session_id, { amr: ['otp'] })).rejects.toBeInstanceOf(IntegrationError);
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/reauthenticate/',
        headers: { authorization: `Bearer ${created.access_token}`, 'content-type': 'application/json' },
        body: '{"password":"x"}',
      }),
    );
    expect(response?.status).toBe(404);
    expect(JSON.parse(response!.body!)).toMatchObject({ error_code: 'not_found' });
    // Before the guard: without a token too, exactly as a path that is not ours.
    const anonymous = await auth.handle(
      sessauthRequest({ method: 'POST', path: '/auth/reauthenticate/', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(anonymous?.status).toBe(404);
  });

  it('with JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS every access token carries auth_time', async () => {
    const { auth, alice, clock } = await engine({ sensitiveActionMaxAgeSeconds: 600 });
    const created = await auth.createSessionFor(alice.id, { amr: ['pwd'] });
    expect(decodeJwt(created.access_token).auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
  });
});
