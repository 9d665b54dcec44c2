import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';

const base: SessauthOptions = { secretKey: 'an-hmac-secret-of-exactly-32-by!', issuer: 'https://issuer.test', audience: 'aud' };

type Warning = { event: string; fields: Record<string, unknown> | undefined };
function recorder(): { warnings: Warning[]; logger: { warn(event: string, fields?: Record<string, string | number | boolean | null>): void } } {
  const warnings: Warning[] = [];
  return { warnings, logger: { warn: (event, fields) => warnings.push({ event, fields }) } };
}

describe('unknown option keys', () => {
  it('warns once per unknown key, suggesting the key that was meant, and still resolves', () => {
    const { warnings, logger } = recorder();
    const options = { ...base, secretkey: 'x', JWT_AUDIENCE: 'aud', frobnicate: true } as unknown as SessauthOptions;
    expect(resolveOptions(options, { logger }).audience).toBe('aud');
    expect(warnings.map((w) => [w.event, w.fields?.key, w.fields?.suggestion])).toEqual([
      ['unknown_setting', 'secretkey', 'secretKey'],
      ['unknown_setting', 'JWT_AUDIENCE', 'audience'],
      ['unknown_setting', 'frobnicate', null],
    ]);
    expect(warnings[0]?.fields?.message).toBe('option "secretkey" is not a sessauth setting and is ignored; did you mean "secretKey"?');
  });

  it('says nothing for known keys, or for a resolved copy passed back in', () => {
    const { warnings, logger } = recorder();
    const resolved = resolveOptions({ ...base, leewaySeconds: 5, customClaims: () => ({}) }, { logger });
    resolveOptions({ ...resolved }, { logger });
    expect(warnings).toEqual([]);
  });

  it('goes to console.warn by default', () => {
    const lines: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void lines.push(args);
    try {
      resolveOptions({ ...base, isuer: 'x' } as unknown as SessauthOptions);
    } finally {
      console.warn = original;
    }
    expect(lines).toEqual([['sessauth unknown_setting: option "isuer" is not a sessauth setting and is ignored; did you mean "issuer"?']]);
  });

  it('reaches createSessauth through the host logger', async () => {
    const { warnings, logger } = recorder();
    await createSessauth({
      options: { ...base, refreshTokenTransprot: 'cookie' } as unknown as SessauthOptions,
      store: new MemorySessionStore(),
      users: { findById: async () => null, idOf: () => '', securityStamp: () => '' },
      authenticator: async () => {
        throw new Error('not called');
      },
      logger: { ...logger, error: () => undefined },
    });
    expect(warnings.map((w) => w.fields?.suggestion)).toEqual(['refreshTokenTransport']);
  });
});

describe('unknown JWT_* environment names', () => {
  it('warns once per unknown JWT_* name, with the nearest setting, and ignores other variables', () => {
    const { warnings, logger } = recorder();
    const options = settingsFromEnv(
      { JWT_SECRET: 'x', JWT_ACCESS_TOKEN_EXPIRY_SECONDS: '60', JWT_ISSUER: 'i', JWT_GEOLOCATION_PROVIDER: 'ipapi', PATH: '/bin', NODE_ENV: 'x' },
      // The host's own JWT_* names (read by the examples, not the core) are known through knownNames.
      { logger, knownNames: ['JWT_GEOLOCATION_PROVIDER'] },
    );
    expect(options).toEqual({ issuer: 'i' });
    expect(warnings.map((w) => [w.fields?.name, w.fields?.suggestion])).toEqual([
      ['JWT_SECRET', 'JWT_SECRET_KEY'],
      ['JWT_ACCESS_TOKEN_EXPIRY_SECONDS', 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS'],
    ]);
    expect(warnings[0]?.fields?.message).toBe(
      'environment variable JWT_SECRET is not a sessauth setting and is ignored; did you mean JWT_SECRET_KEY?',
    );
  });

  it('knows only the settings table and the knownNames of the host: a variable of an example is not a setting of the core', () => {
    const { warnings, logger } = recorder();
    settingsFromEnv({ JWT_GEOLOCATION_PROVIDER: 'ipapi', JWT_ISSUER: 'i' }, { logger });
    expect(warnings.map((w) => w.fields?.name)).toEqual(['JWT_GEOLOCATION_PROVIDER']);
  });

  it('names the option key and the environment name in a parse error', () => {
    expect(() => settingsFromEnv({ JWT_MAX_ACTIVE_SESSIONS: 'ten' })).toThrow(/^maxActiveSessions \/ JWT_MAX_ACTIVE_SESSIONS: must be an integer$/);
    expect(() => settingsFromEnv({ JWT_PERSIST_CLIENT_IP: 'yes' })).toThrow(/^persistClientIp \/ JWT_PERSIST_CLIENT_IP: must be true/);
  });
});
