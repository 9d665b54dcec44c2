import { settingsFromEnv, type SessauthOptions } from '@sessauth/core';

export interface ExampleConfig {
  readonly port: number;
  readonly host: string;
  readonly storeUrl: string;
  readonly demoUsers: string;
  readonly adminUsers: string[];
  readonly options: SessauthOptions;
}

const DEV_SECRET = 'dev-only-secret-do-not-use-in-production-0123456789abcdef';

/**
 * Reads the example's environment. The examples (never the library) default the
 * secret, issuer and audience so that the demo starts with no setup, and say so
 * loudly; a blank value is treated as unset by `settingsFromEnv`. Unlike the
 * library, they default to cookie transport, which the demo page needs.
 */
export function exampleConfigFromEnv(env: NodeJS.ProcessEnv): ExampleConfig {
  const fromEnv = settingsFromEnv(env);
  const defaulted: string[] = [];
  const pick = (value: string | undefined, name: string, fallback: string): string => {
    if (value !== undefined && value.trim() !== '') return value;
    defaulted.push(name);
    return fallback;
  };
  const options: SessauthOptions = {
    ...fromEnv,
    secretKey: pick(fromEnv.secretKey, 'JWT_SECRET_KEY', DEV_SECRET),
    issuer: pick(fromEnv.issuer, 'JWT_ISSUER', 'http://localhost'),
    audience: pick(fromEnv.audience, 'JWT_AUDIENCE', 'sessauth-demo'),
    // The demo page at GET / is a browser: its refresh token belongs in an HttpOnly
    // cookie. The library's default stays `body`; JWT_REFRESH_TOKEN_TRANSPORT=body for curl.
    refreshTokenTransport: fromEnv.refreshTokenTransport ?? 'cookie',
  };
  if (defaulted.length > 0) {
    console.warn(`\n*** DEVELOPMENT DEFAULTS in use for ${defaulted.join(', ')}: never run this in production. ***\n`);
  }
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    storeUrl: env.SESSAUTH_STORE?.trim() || 'sqlite:./.data/sessauth.db',
    demoUsers: env.SESSAUTH_DEMO_USERS ?? 'alice:alice-password,bob:bob-password',
    adminUsers: (env.SESSAUTH_ADMIN_USERS ?? 'alice').split(',').map((s) => s.trim()).filter(Boolean),
    options,
  };
}
