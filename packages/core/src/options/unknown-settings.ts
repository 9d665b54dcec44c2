import type { Logger } from '../log/logger.js';
import { SETTING_NAMES } from './setting-names.js';
import type { SettingKey } from './settings-table.js';

/** Where start-up warnings go: any `Logger` (its `warn`) will do. */
export type SettingsWarningLogger = Pick<Logger, 'warn'>;

/** The default: one readable line on `console.warn` (start-up, before any host logger exists). */
export const consoleSettingsWarnings: SettingsWarningLogger = {
  warn: (event, fields) => console.warn(`sessauth ${event}: ${String(fields?.message ?? '')}`),
};

const KEYS = Object.keys(SETTING_NAMES) as SettingKey[];
const KEY_BY_ENV_NAME = new Map<string, SettingKey>(KEYS.map((key) => [SETTING_NAMES[key], key]));
// Fields a ResolvedOptions carries beyond the options (a spread copy passed back in).
const DERIVED_KEYS = new Set(['loginThrottle', 'refreshThrottle', 'loginAccountThrottle', 'loginNetworkThrottle']);

/**
 * One warning per option key that `SessauthOptions` does not have (a typo such as
 * `secretkey`, or a `JWT_*` name used as a key): an unknown key would otherwise be
 * ignored in silence and its default used.
 */
export function warnUnknownOptionKeys(options: object, logger: SettingsWarningLogger): void {
  for (const key of Object.keys(options)) {
    if ((SETTING_NAMES as Record<string, string>)[key] !== undefined || DERIVED_KEYS.has(key)) continue;
    const suggestion = KEY_BY_ENV_NAME.get(key) ?? closest(key, KEYS);
    logger.warn('unknown_setting', {
      key,
      suggestion: suggestion ?? null,
      message: `option "${key}" is not a sessauth setting and is ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
    });
  }
}

/** One warning per `JWT_*` variable of `env` that no setting reads and the host did not name (a typo in a .env file). */
export function warnUnknownEnvNames(env: Record<string, string | undefined>, logger: SettingsWarningLogger, hostNames: readonly string[] = []): void {
  const known = new Set(hostNames);
  const names = [...KEY_BY_ENV_NAME.keys(), ...known];
  for (const name of Object.keys(env)) {
    if (!name.startsWith('JWT_') || KEY_BY_ENV_NAME.has(name) || known.has(name)) continue;
    const suggestion = closest(name, names);
    logger.warn('unknown_setting', {
      name,
      suggestion: suggestion ?? null,
      message: `environment variable ${name} is not a sessauth setting and is ignored${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    });
  }
}

/** The candidate nearest to `word` (ignoring case and `_`), if it is close enough to be a typo. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  const plain = (text: string): string => text.toLowerCase().replaceAll('_', '');
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 4)) + 1;
  for (const candidate of candidates) {
    // A name cut short (JWT_SECRET for JWT_SECRET_KEY) is as likely a slip as a typo.
    const truncated = word.length >= 8 && plain(candidate).startsWith(plain(word));
    const distance = truncated ? 1 : editDistance(plain(word), plain(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
