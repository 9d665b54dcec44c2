import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { refreshCookie } from '../src/http/auth-cookies.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

const base: SessauthOptions = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' };
const DAY = 86_400;

function settingsErrorOf(options: Partial<SessauthOptions>): SettingsError {
  try {
    resolveOptions({ ...base, ...options });
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('resolveOptions accepted the options');
}

describe('JWT_SHORT_SESSION_EXPIRE_SECONDS', () => {
  it('defaults to one day, or the session lifetime when that is shorter', () => {
    expect(resolveOptions(base).shortSessionExpireSeconds).toBe(DAY);
    expect(resolveOptions({ ...base, sessionExpireSeconds: 3600 }).shortSessionExpireSeconds).toBe(3600);
    expect(resolveOptions({ ...base, sessionExpireSeconds: 0, refreshTokenExpireSeconds: 600 }).shortSessionExpireSeconds).toBe(600);
    expect(settingsFromEnv({ JWT_SHORT_SESSION_EXPIRE_SECONDS: '7200' }, { logger: { warn: () => {} } }).shortSessionExpireSeconds).toBe(7200);
  });

  it('is 1.. the session lifetime (the refresh lifetime when sessions never age out), naming the limit', () => {
    expect(settingsErrorOf({ shortSessionExpireSeconds: 0 }).setting).toBe('JWT_SHORT_SESSION_EXPIRE_SECONDS');
    expect(settingsErrorOf({ shortSessionExpireSeconds: 1.5 }).setting).toBe('JWT_SHORT_SESSION_EXPIRE_SECONDS');
    const over = settingsErrorOf({ sessionExpireSeconds: 3600, shortSessionExpireSeconds: 3601 });
    expect(over.setting).toBe('JWT_SHORT_SESSION_EXPIRE_SECONDS');
    expect(over.message).toContain('JWT_SESSION_EXPIRE_SECONDS (3600)');
    const overRefresh = settingsErrorOf({ sessionExpireSeconds: 0, refreshTokenExpireSeconds: 600, shortSessionExpireSeconds: 601 });
    expect(overRefresh.message).toContain('JWT_REFRESH_TOKEN_EXPIRE_SECONDS (600)');
  });
});

describe('refreshCookie', () => {
  it('without persistence is a browser-session cookie (no Max-Age, no Expires)', () => {
    const options = resolveOptions({ ...base, refreshTokenTransport: 'cookie' });
    const now = new Date();
    const persistent = refreshCookie(options, 'a.b.c', new Date(now.getTime() + 60_000), now);
    const session = refreshCookie(options, 'a.b.c', new Date(now.getTime() + 60_000), now, false);
    expect(persistent).toContain('Max-Age=60');
    expect(session).not.toMatch(/max-age|expires/i);
    expect(session).toBe('refresh_token=a.b.c; Path=/auth/refresh/; HttpOnly; Secure; SameSite=Lax');
  });
});

describe('"remember" in the login body', () => {
  const alice = { id: 'user-alice' };

  async function engine(options: Partial<SessauthOptions> = {}) {
    const store = new MemorySessionStore();
    let authenticated = 0;
    const auth = await createSessauth({
      options: { ...base, loginThrottleRate: '0', refreshThrottleRate: '0', ...options },
      store,
      users: { findById: async () => alice, idOf: (user) => user.id, securityStamp: () => 'stamp' },
      authenticator: async () => {
        authenticated += 1;
        return alice;
      },
      logger: silentLogger,
    });
    const post = async (path: string, body: unknown) => {
      const response = await auth.handle(
        sessauthRequest({ method: 'POST', path: `/auth${path}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
      return { status: response!.status, body: JSON.parse(response!.body!) as Record<string, string> };
    };
    return { store, post, authenticated: () => authenticated };
  }

  it('false: a session of shortSessionExpireSeconds whose refresh tokens carry remember: false from rotation to rotation', async () => {
    const { store, post } = await engine({ shortSessionExpireSeconds: 3600 });
    const login = await post('/login/', { username: 'alice', password: 'x', remember: false });
    expect(login.status).toBe(200);
    const claims = decodeJwt(login.body.refresh_token!);
    expect(claims.remember).toBe(false);
    expect(decodeJwt(login.body.access_token!).remember).toBeUndefined();
    const session = (await store.findSession(String(claims.sid)))!;
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBe(3600 * 1000);
    // Tokens minted at login end with the short session.
    expect(claims.exp).toBeLessThanOrEqual(Math.floor(session.expiresAt.getTime() / 1000));
    const refreshed = await post('/refresh/', { refresh_token: login.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.refresh_token!).remember).toBe(false);
  });

  it('true or absent: the full session lifetime and no remember claim', async () => {
    const { store, post } = await engine();
    for (const body of [{}, { remember: true }]) {
      const login = await post('/login/', { username: 'alice', password: 'x', ...body });
      const claims = decodeJwt(login.body.refresh_token!);
      expect(claims.remember).toBeUndefined();
      const session = (await store.findSession(String(claims.sid)))!;
      expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBe(14 * DAY * 1000);
    }
  });

  it('any other type is 400 invalid_request before the authenticator runs', async () => {
    const { post, authenticated } = await engine();
    for (const remember of ['false', 0, null, [], {}]) {
      expect(await post('/login/', { username: 'alice', password: 'x', remember })).toMatchObject({
        status: 400,
        body: { error_code: 'invalid_request' },
      });
    }
    expect(authenticated()).toBe(0);
  });
});
