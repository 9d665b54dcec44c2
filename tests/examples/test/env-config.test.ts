import { SettingsError } from '@sessauth/core';
import { exampleConfigFromEnv, httpLimitsFromEnv, startupBanner } from '@sessauth/example-shared';
import { describe, expect, it } from 'vitest';

const REQUIRED = ['JWT_SECRET_KEY', 'JWT_ISSUER', 'JWT_AUDIENCE'] as const;
const SET = {
  JWT_SECRET_KEY: 'a-real-secret-of-at-least-thirty-two-bytes-0123456789',
  JWT_ISSUER: 'https://auth.example.com',
  JWT_AUDIENCE: 'example-api',
} as const;

/** What `exampleConfigFromEnv` threw, for asserting on the setting it names. */
function refusal(env: NodeJS.ProcessEnv): SettingsError {
  try {
    exampleConfigFromEnv(env);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe("the examples' settings", () => {
  it.each(REQUIRED)('a set but blank %s is refused with SettingsError naming it, in development too', (name) => {
    for (const blank of ['', '   ', '\t\n']) {
      const error = refusal({ ...SET, [name]: blank });
      expect(error.setting).toBe(name);
      expect(error.message).toMatch(new RegExp(`^${name}: is set but blank`));
    }
  });

  it.each(REQUIRED)('with NODE_ENV=production a missing %s is refused, naming it', (name) => {
    const env: NodeJS.ProcessEnv = { ...SET, NODE_ENV: 'production' };
    delete env[name];
    expect(refusal(env).setting).toBe(name);
  });

  it('in development an unset secret, issuer and audience get defaults, and the banner names them loudly', () => {
    const config = exampleConfigFromEnv({ NODE_ENV: 'development' });
    expect(config.developmentDefaults).toEqual([...REQUIRED]);
    expect(config.options.secretKey).toMatch(/^dev-only-secret/);
    expect(config.options.issuer).toBe('http://localhost');
    expect(config.options.audience).toBe('sessauth-demo');
    expect(startupBanner('express', config)).toContain(
      '*** DEVELOPMENT DEFAULTS in use for JWT_SECRET_KEY, JWT_ISSUER, JWT_AUDIENCE: never run this in production',
    );
  });

  it('values that are set are used as given, with no default and no warning', () => {
    const config = exampleConfigFromEnv({ ...SET, NODE_ENV: 'production' });
    expect(config.developmentDefaults).toEqual([]);
    expect(config.options).toMatchObject({ secretKey: SET.JWT_SECRET_KEY, issuer: SET.JWT_ISSUER, audience: SET.JWT_AUDIENCE });
    expect(startupBanner('koa', config)).not.toContain('DEVELOPMENT DEFAULTS');
  });

  it('only the unset ones are defaulted', () => {
    const config = exampleConfigFromEnv({ JWT_ISSUER: SET.JWT_ISSUER });
    expect(config.developmentDefaults).toEqual(['JWT_SECRET_KEY', 'JWT_AUDIENCE']);
    expect(config.options.issuer).toBe(SET.JWT_ISSUER);
  });
});

describe("the examples' freshness rule for sensitive actions (RFC 9470)", () => {
  it('is 10 minutes unless JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS says otherwise (0: off)', () => {
    expect(exampleConfigFromEnv({}).options.sensitiveActionMaxAgeSeconds).toBe(600);
    expect(exampleConfigFromEnv({ JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS: '120' }).options.sensitiveActionMaxAgeSeconds).toBe(120);
    expect(exampleConfigFromEnv({ JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS: '0' }).options.sensitiveActionMaxAgeSeconds).toBe(0);
  });
});

describe("the examples' demo users", () => {
  it('are alice and bob in development (NODE_ENV unset or anything but production), alice the admin', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const config = exampleConfigFromEnv({ NODE_ENV });
      expect(config.demoUsers).toEqual({ spec: 'alice:alice-password,bob:bob-password', builtIn: true });
      expect(config.adminUsers).toEqual(['alice']);
      const banner = startupBanner('fastify', config);
      expect(banner).toContain('Demo users seeded: alice, bob (from the development defaults');
      expect(banner).not.toContain('alice-password');
    }
  });

  it('are not seeded in production unless SESSAUTH_DEMO_USERS names them, and the banner says so', () => {
    const config = exampleConfigFromEnv({ ...SET, NODE_ENV: 'production' });
    expect(config.demoUsers).toBeNull();
    expect(config.adminUsers).toEqual([]); // no built-in admin either
    expect(startupBanner('fetch', config)).toContain('No demo users seeded (NODE_ENV=production; SESSAUTH_DEMO_USERS seeds some).');
  });

  it('are exactly SESSAUTH_DEMO_USERS when set, in production too; admins only when named', () => {
    const config = exampleConfigFromEnv({ ...SET, NODE_ENV: 'production', SESSAUTH_DEMO_USERS: 'carol:carol-password-1' });
    expect(config.demoUsers).toEqual({ spec: 'carol:carol-password-1', builtIn: false });
    expect(config.adminUsers).toEqual([]);
    expect(startupBanner('express', config)).toContain('Demo users seeded: carol (from SESSAUTH_DEMO_USERS).');
    const withAdmin = exampleConfigFromEnv({ ...SET, SESSAUTH_DEMO_USERS: 'carol:x,dave:y', SESSAUTH_ADMIN_USERS: 'dave' });
    expect(withAdmin.adminUsers).toEqual(['dave']);
  });

  it('an empty SESSAUTH_DEMO_USERS turns them off in development', () => {
    const config = exampleConfigFromEnv({ SESSAUTH_DEMO_USERS: '' });
    expect(config.demoUsers).toBeNull();
    expect(startupBanner('koa', config)).toContain('No demo users seeded.');
  });
});

describe("the examples' HTTP time limits", () => {
  it('default to 15 s per request, 10 s for headers, 5 s of keep-alive', () => {
    expect(httpLimitsFromEnv({})).toEqual({ requestTimeoutMs: 15_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
  });

  it('follow SESSAUTH_REQUEST_TIMEOUT_MS (the headers never get longer than the request)', () => {
    expect(httpLimitsFromEnv({ SESSAUTH_REQUEST_TIMEOUT_MS: '2000', SESSAUTH_KEEP_ALIVE_TIMEOUT_MS: '65000' })).toEqual({
      requestTimeoutMs: 2_000,
      headersTimeoutMs: 2_000,
      keepAliveTimeoutMs: 65_000,
    });
  });

  it.each(['0', '-1', '1.5', 'soon', '3600001'])('refuse SESSAUTH_REQUEST_TIMEOUT_MS=%j, naming it', (value) => {
    expect(() => httpLimitsFromEnv({ SESSAUTH_REQUEST_TIMEOUT_MS: value })).toThrow(
      expect.objectContaining({ setting: 'SESSAUTH_REQUEST_TIMEOUT_MS' }),
    );
  });
});

describe("the examples' activity history and risk signals (the demo page's activity view)", () => {
  const of = (env: Record<string, string>, defaults?: { activityHistory?: boolean }) => {
    const { sessionActivity, riskSignals } = exampleConfigFromEnv(env, defaults).options;
    return { sessionActivity, riskSignals };
  };
  it('are on unless turned off; signals follow the history; the ORM examples leave both to the environment', () => {
    expect(of({})).toEqual({ sessionActivity: true, riskSignals: true });
    expect(of({ JWT_SESSION_ACTIVITY: 'false' })).toEqual({ sessionActivity: false, riskSignals: false });
    expect(of({ JWT_RISK_SIGNALS: 'false' })).toEqual({ sessionActivity: true, riskSignals: false });
    expect(of({}, { activityHistory: false })).toEqual({ sessionActivity: undefined, riskSignals: undefined });
  });
});
