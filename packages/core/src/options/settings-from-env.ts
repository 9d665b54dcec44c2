import { SettingsError } from '../errors/sessauth-error.js';
import type { SessauthOptions } from './options.js';
import { SETTING_NAMES } from './setting-names.js';
import { consoleSettingsWarnings, warnUnknownEnvNames, type SettingsWarningLogger } from './unknown-settings.js';

type Kind = 'string' | 'secret' | 'secret-list' | 'pem-list' | 'int' | 'bool' | 'list';
type EnvKey = Exclude<keyof SessauthOptions, 'customClaims'>;

const KINDS: Readonly<Record<EnvKey, Kind>> = {
  secretKey: 'secret',
  verifyingKey: 'secret',
  previousSecretKeys: 'secret-list',
  previousVerifyingKeys: 'pem-list',
  securityStampKey: 'secret',
  algorithm: 'string',
  issuer: 'string',
  audience: 'string',
  accessTokenExpireSeconds: 'int',
  refreshTokenExpireSeconds: 'int',
  sessionExpireSeconds: 'int',
  shortSessionExpireSeconds: 'int',
  leewaySeconds: 'int',
  maxActiveSessions: 'int',
  refreshTokenReuseGraceSeconds: 'int',
  refreshTokenTransport: 'string',
  refreshCookieName: 'string',
  refreshCookiePath: 'string',
  refreshCookieDomain: 'string',
  refreshCookieSecure: 'bool',
  refreshCookieHttpOnly: 'bool',
  refreshCookieSameSite: 'string',
  csrfCookieName: 'string',
  csrfCookieSecure: 'bool',
  csrfTrustedOrigins: 'list',
  allowedHosts: 'list',
  loginThrottleRate: 'string',
  refreshThrottleRate: 'string',
  loginAccountThrottleRate: 'string',
  throttleIpv6Prefix: 'int',
  trustedProxyCidrs: 'list',
  persistClientIp: 'bool',
  maxUsernameLength: 'int',
  maxPasswordLength: 'int',
  maxTokenLength: 'int',
  maxForwardedHeaderLength: 'int',
  maxForwardedHops: 'int',
  maxBodyBytes: 'int',
  geolocationTimeoutMs: 'int',
  storeBudgetMs: 'int',
  activityUpdateIntervalSeconds: 'int',
  sessionIdleSeconds: 'int',
  prefix: 'string',
  adminPrefix: 'string',
};

const SAME_SITE: Readonly<Record<string, 'Strict' | 'Lax' | 'None'>> = { strict: 'Strict', lax: 'Lax', none: 'None' };

/**
 * Reads the `JWT_*` settings from an environment into `SessauthOptions` for
 * `resolveOptions`. An unset or blank variable gives `undefined`, so the default applies
 * (or, for a required setting, `resolveOptions` fails naming it). Values are trimmed,
 * except keys, whose bytes matter. Booleans are true/false/1/0 (any case); numbers are
 * integers; lists are comma-separated with empty items dropped. A PEM key written on one
 * line with literal `\n` sequences (common in .env files) gets real line breaks. Each
 * `JWT_*` variable no setting reads (a typo) is warned about through `logger` (console.warn by default).
 */
export function settingsFromEnv(
  env: Record<string, string | undefined>,
  { logger = consoleSettingsWarnings }: { logger?: SettingsWarningLogger } = {},
): SessauthOptions {
  warnUnknownEnvNames(env, logger);
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(KINDS) as [EnvKey, Kind][]) {
    const name = SETTING_NAMES[key];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const value = raw.trim();
    switch (kind) {
      case 'secret':
        out[key] = value.startsWith('-----BEGIN') && raw.includes('\\n') ? raw.replaceAll('\\n', '\n') : raw;
        break;
      case 'secret-list':
        // Comma-separated and trimmed: a secret with a comma or edge whitespace goes in code instead.
        out[key] = raw
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '');
        break;
      case 'pem-list':
        out[key] = pemBlocks(raw.includes('\\n') && !raw.trim().includes('\n') ? raw.replaceAll('\\n', '\n') : raw);
        break;
      case 'int':
        if (!/^[+-]?[0-9]+$/.test(value)) throw new SettingsError(name, 'must be an integer', key);
        out[key] = Number(value);
        break;
      case 'bool':
        out[key] = parseBool(key, value);
        break;
      case 'list':
        out[key] = value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '');
        break;
      case 'string':
        out[key] = value;
        break;
    }
  }
  // Case-insensitive spellings of the enumerations; anything else is left for resolveOptions to reject.
  if (typeof out.refreshCookieSameSite === 'string') {
    out.refreshCookieSameSite = SAME_SITE[out.refreshCookieSameSite.toLowerCase()] ?? out.refreshCookieSameSite;
  }
  if (typeof out.refreshTokenTransport === 'string') {
    out.refreshTokenTransport = out.refreshTokenTransport.toLowerCase();
  }
  // Required settings may be missing here on purpose: resolveOptions reports them by name.
  return out as unknown as SessauthOptions;
}

function parseBool(key: EnvKey, value: string): boolean {
  switch (value.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new SettingsError(SETTING_NAMES[key], 'must be true or false (or 1/0)', key);
  }
}

/**
 * The PEM blocks of a value holding several one after another (anything between them,
 * whitespace or commas, is ignored). Text that holds no block is kept whole, so
 * resolveOptions reports what is wrong with it.
 */
function pemBlocks(value: string): string[] {
  const blocks = value.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g);
  return blocks === null ? [value] : blocks.map((block) => `${block}\n`);
}
