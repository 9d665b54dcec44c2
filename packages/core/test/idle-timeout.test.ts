import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { SettingsError } from '../src/errors/sessauth-error.js';
import type { RevokeEvent } from '../src/events/session-events.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { PublicSession } from '../src/http/wire-types.js';
import { sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

const base: SessauthOptions = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' };

function settingsErrorOf(options: Partial<SessauthOptions>): SettingsError {
  try {
    resolveOptions({ ...base, ...options });
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('resolveOptions accepted the options');
}

describe('JWT_SESSION_IDLE_SECONDS: settings', () => {
  it('is off (0) by default and read from the environment', () => {
    expect(resolveOptions(base).sessionIdleSeconds).toBe(0);
    expect(settingsFromEnv({ JWT_SESSION_IDLE_SECONDS: '1800' }, { logger: { warn: () => {} } }).sessionIdleSeconds).toBe(1800);
    expect(resolveOptions({ ...base, sessionIdleSeconds: 1800 }).sessionIdleSeconds).toBe(1800);
  });

  it('must be at least twice the activity update interval, naming both settings', () => {
    const error = settingsErrorOf({ sessionIdleSeconds: 100 });
    expect(error.setting).toBe('JWT_SESSION_IDLE_SECONDS');
    expect(error.message).toContain('JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS');
    expect(error.message).toContain('(60)');
    // Exactly twice passes; a shorter interval makes a short timeout possible.
    expect(resolveOptions({ ...base, sessionIdleSeconds: 120 }).sessionIdleSeconds).toBe(120);
    expect(resolveOptions({ ...base, sessionIdleSeconds: 30, activityUpdateIntervalSeconds: 15 }).sessionIdleSeconds).toBe(30);
    expect(resolveOptions({ ...base, sessionIdleSeconds: 30, activityUpdateIntervalSeconds: 0 }).sessionIdleSeconds).toBe(30);
  });

  it('refuses a negative, fractional or over-a-year value', () => {
    for (const value of [-1, 1.5, 365 * 86_400 + 1]) {
      expect(settingsErrorOf({ sessionIdleSeconds: value }).setting).toBe('JWT_SESSION_IDLE_SECONDS');
    }
  });
});

/** A clock the test moves by hand. */
function manualClock() {
  let ms = Date.UTC(2026, 0, 1);
  return { now: () => new Date(ms), advance: (seconds: number) => void (ms += seconds * 1000) };
}

const alice = { id: 'user-alice', username: 'alice' };

async function engine(options: Partial<SessauthOptions>) {
  const clock = manualClock();
  const store = new MemorySessionStore();
  const revokes: RevokeEvent[] = [];
  const auth = await createSessauth({
    options: { ...base, loginThrottleRate: '0', refreshThrottleRate: '0', accessTokenExpireSeconds: 3600, ...options },
    store,
    users: { findById: async (id) => (id === alice.id ? alice : null), idOf: (user) => user.id, securityStamp: () => 'stamp' },
    authenticator: async () => alice,
    clock,
    logger: silentLogger,
    events: { revoke: (event) => void revokes.push(event) },
  });
  const post = async (path: string, body: unknown, bearer?: string) => {
    const response = await auth.handle(
      sessauthRequest({
        method: 'POST',
        path: `/auth${path}`,
        headers: { 'content-type': 'application/json', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
        body: JSON.stringify(body),
      }),
    );
    return { status: response!.status, body: JSON.parse(response!.body || 'null') as Record<string, string> };
  };
  const login = async () => (await post('/login/', {})).body as { access_token: string; refresh_token: string };
  const list = async (bearer: string) => {
    const response = await auth.handle(sessauthRequest({ path: '/auth/sessions/', headers: { authorization: `Bearer ${bearer}` } }));
    return JSON.parse(response!.body!) as PublicSession[];
  };
  return { auth, clock, store, revokes, post, login, list };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('JWT_SESSION_IDLE_SECONDS: the guard, the list and the refresh agree', () => {
  it('an idle session is session_expired everywhere; the refresh revokes it and reports reason idle', async () => {
    const { auth, clock, store, revokes, post, login, list } = await engine({ sessionIdleSeconds: 600, activityUpdateIntervalSeconds: 60 });
    const used = await login();
    const idle = await login();
    clock.advance(300);
    const context = await auth.authenticate({ authorization: [`Bearer ${used.access_token}`] });
    await settle(); // the touch is not awaited by the guard
    expect((await store.findSession(context.session.id))?.lastActivityAt).toEqual(clock.now());
    clock.advance(300); // `idle`: exactly 600 s without activity, which is idle ("at or before the cutoff")

    await expect(auth.authenticate({ authorization: [`Bearer ${idle.access_token}`] })).rejects.toMatchObject({ code: 'session_expired' });
    expect((await list(used.access_token)).map((session) => session.id)).toEqual([context.session.id]);
    const idleId = (await store.listActiveSessions(alice.id, clock.now())).find((s) => s.id !== context.session.id)!.id;
    expect((await store.findSession(idleId))?.expiredAt).toBeNull(); // the guard does not write

    expect(await post('/refresh/', { refresh_token: idle.refresh_token })).toMatchObject({ status: 401, body: { error_code: 'session_expired' } });
    expect((await store.findSession(idleId))?.expiredAt).toEqual(clock.now());
    await settle();
    expect(revokes).toEqual([{ userId: alice.id, sessionId: idleId, count: 1, reason: 'idle' }]);
    // A second try is a plain expired session: no second event.
    expect((await post('/refresh/', { refresh_token: idle.refresh_token })).status).toBe(401);
    await settle();
    expect(revokes).toHaveLength(1);

    expect((await post('/refresh/', { refresh_token: used.refresh_token })).status).toBe(200);
  });

  it('off by default: a session unused for days keeps working', async () => {
    const { auth, clock, post, login } = await engine({ accessTokenExpireSeconds: 86_400 });
    const tokens = await login();
    clock.advance(86_000);
    await expect(auth.authenticate({ authorization: [`Bearer ${tokens.access_token}`] })).resolves.toBeDefined();
    expect((await post('/refresh/', { refresh_token: tokens.refresh_token })).status).toBe(200);
  });
});
