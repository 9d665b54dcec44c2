import { describe, expect, it } from 'vitest';
import { exampleExit, startExample } from './support/example-process.js';

// The settings are read by the shared code every example calls: one example proves the wiring.
const ADAPTER = 'express';
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET_KEY: 'a-production-secret-of-more-than-thirty-two-bytes-0123',
  JWT_ISSUER: 'https://auth.example.com',
  JWT_AUDIENCE: 'example-api',
};

describe(`the ${ADAPTER} example at start-up`, () => {
  it('refuses a set but blank JWT_ISSUER with SettingsError naming it, and does not listen', async () => {
    const { code, output } = await exampleExit(ADAPTER, { JWT_ISSUER: '  ' });
    expect(code).not.toBe(0);
    expect(output).toContain('SettingsError');
    expect(output).toContain('JWT_ISSUER: is set but blank');
    expect(output).not.toContain('example on http://');
  });

  it('refuses a missing JWT_SECRET_KEY with NODE_ENV=production instead of using the development default', async () => {
    const { JWT_SECRET_KEY: _omitted, ...withoutSecret } = PRODUCTION;
    const { code, output } = await exampleExit(ADAPTER, withoutSecret);
    expect(code).not.toBe(0);
    expect(output).toContain('JWT_SECRET_KEY: is required with NODE_ENV=production');
  });

  it('in production seeds no demo user, says so, and alice cannot sign in', async () => {
    const example = await startExample(ADAPTER, { ...PRODUCTION, JWT_REFRESH_TOKEN_TRANSPORT: 'body' });
    try {
      expect(example.output()).toContain('No demo users seeded (NODE_ENV=production; SESSAUTH_DEMO_USERS seeds some).');
      expect(example.output()).not.toContain('DEVELOPMENT DEFAULTS');
      const response = await fetch(`${example.baseUrl}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'alice-password' }),
      });
      expect(response.status).toBe(401);
    } finally {
      await example.stop();
    }
  });
});
