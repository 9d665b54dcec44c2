import { SettingsError, settingsFromEnv, type SessauthOptions } from '@sessauth/core';
import { GEOLOCATION_ENV_NAMES } from './geolocation-from-env.js';
import { httpLimitsFromEnv, type HttpServerLimits } from './http-server-limits.js';

/** Who is seeded into the examples' in-memory user table, and why. */
export interface DemoUsersPlan {
  /** "name:password,name:password" */
  readonly spec: string;
  /** True when these are the built-in development users (SESSAUTH_DEMO_USERS unset). */
  readonly builtIn: boolean;
}

export interface ExampleConfig {
  readonly port: number;
  readonly host: string;
  readonly storeUrl: string;
  /** null: no demo user is seeded (production without SESSAUTH_DEMO_USERS, or SESSAUTH_DEMO_USERS=""). */
  readonly demoUsers: DemoUsersPlan | null;
  readonly adminUsers: string[];
  readonly options: SessauthOptions;
  /** NODE_ENV=production: no development default of any kind. */
  readonly production: boolean;
  /** The settings that got their development default, for the start-up banner. */
  readonly developmentDefaults: readonly string[];
  readonly http: HttpServerLimits;
}

const DEV_SECRET = 'dev-only-secret-do-not-use-in-production-0123456789abcdef';
const BUILT_IN_USERS = 'alice:alice-password,bob:bob-password';

export interface ExampleConfigDefaults {
  /**
   * Default the activity history and the risk signals on (JWT_SESSION_ACTIVITY, JWT_RISK_SIGNALS),
   * so the demo page and the admin listing show them. Off for an example whose schema has no
   * activity table (the ORM examples). @default true
   */
  readonly activityHistory?: boolean;
}

/** The settings the library requires and the examples may default in development. */
const REQUIRED = [
  ['JWT_SECRET_KEY', 'secretKey', DEV_SECRET],
  ['JWT_ISSUER', 'issuer', 'http://localhost'],
  ['JWT_AUDIENCE', 'audience', 'sessauth-demo'],
] as const;

/**
 * Reads an example's environment. The examples (never the library) default the
 * secret, issuer and audience, and seed the demo users alice and bob, but only in
 * development: when a variable is unset and NODE_ENV is not `production`. A value
 * that is set but blank is a mistake (an empty line in a .env, a missing secret in
 * CI), so it stops start-up with `SettingsError` naming the setting instead of
 * silently becoming the development default. With NODE_ENV=production a missing one
 * stops start-up too. Unlike the library, the examples default to cookie transport,
 * which the demo page needs.
 */
export function exampleConfigFromEnv(env: NodeJS.ProcessEnv, defaults: ExampleConfigDefaults = {}): ExampleConfig {
  const production = env.NODE_ENV?.trim() === 'production';
  const fromEnv = settingsFromEnv(env, { knownNames: GEOLOCATION_ENV_NAMES });
  const developmentDefaults: string[] = [];
  const required: Partial<Record<(typeof REQUIRED)[number][1], string>> = {};
  for (const [name, key, fallback] of REQUIRED) {
    const raw = env[name];
    if (raw !== undefined && raw.trim() === '') {
      throw new SettingsError(name, "is set but blank: give it a value, or unset it in development to use the example's default");
    }
    if (raw === undefined) {
      if (production) throw new SettingsError(name, "is required with NODE_ENV=production (the example's development default is refused)");
      developmentDefaults.push(name);
    }
    required[key] = fromEnv[key] ?? fallback;
  }
  const demoUsers = demoUsersFrom(env.SESSAUTH_DEMO_USERS, production);
  return {
    port: portFrom(env.PORT),
    host: env.HOST?.trim() || '127.0.0.1',
    storeUrl: env.SESSAUTH_STORE?.trim() || 'sqlite:./.data/sessauth.db',
    demoUsers,
    // alice is the admin of the built-in users only; any other admin is named explicitly.
    adminUsers: listFrom(env.SESSAUTH_ADMIN_USERS ?? (demoUsers?.builtIn ? 'alice' : '')),
    options: {
      ...fromEnv,
      ...required,
      // The demo page at GET / is a browser: its refresh token belongs in an HttpOnly
      // cookie. The library's default stays `body`; JWT_REFRESH_TOKEN_TRANSPORT=body for curl.
      refreshTokenTransport: fromEnv.refreshTokenTransport ?? 'cookie',
      // The password change and both bulk logouts need a sign-in of the last 10 minutes (the demo
      // page asks for the password again). The library's default stays off; 0 turns it off here too.
      sensitiveActionMaxAgeSeconds: fromEnv.sensitiveActionMaxAgeSeconds ?? 600,
      ...activityDefaults(fromEnv, defaults.activityHistory ?? true),
    },
    production,
    developmentDefaults,
    http: httpLimitsFromEnv(env),
  };
}

/**
 * The demo page shows each session's history and its risk-signal badges: both on unless set.
 * The library's defaults stay off; JWT_SESSION_ACTIVITY=false turns both off here (signals need
 * the history), JWT_RISK_SIGNALS=false only the signals.
 */
function activityDefaults(fromEnv: SessauthOptions, on: boolean): Pick<SessauthOptions, 'sessionActivity' | 'riskSignals'> {
  if (!on) return {};
  const sessionActivity = fromEnv.sessionActivity ?? true;
  return { sessionActivity, riskSignals: fromEnv.riskSignals ?? sessionActivity };
}

/** Set (even to "", which seeds nobody): exactly those users. Unset: alice and bob in development, nobody in production. */
function demoUsersFrom(value: string | undefined, production: boolean): DemoUsersPlan | null {
  if (value !== undefined) return value.trim() === '' ? null : { spec: value, builtIn: false };
  return production ? null : { spec: BUILT_IN_USERS, builtIn: true };
}

function portFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new SettingsError('PORT', 'must be an integer from 0 to 65535');
  return port;
}

function listFrom(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
