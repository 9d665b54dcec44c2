import { SettingsError } from '../errors/sessauth-error.js';
import type { SessauthOptions } from './options.js';
import type { EnvReading } from './setting-kinds.js';
import { type SettingKey, type SettingRow, SETTINGS } from './settings-table.js';
import { consoleSettingsWarnings, type SettingsWarningLogger, warnUnknownEnvNames } from './unknown-settings.js';

/**
 * Reads the `JWT_*` settings from an environment into `SessauthOptions` for
 * `resolveOptions`. An unset or blank variable gives `undefined`, so the default applies
 * (or, for a required setting, `resolveOptions` fails naming it). Values are trimmed,
 * except keys, whose bytes matter. Booleans are true/false/1/0 (any case); numbers are
 * integers; lists are comma-separated with empty items dropped. A PEM key written on one
 * line with literal `\n` sequences (common in .env files) gets real line breaks. Each
 * `JWT_*` variable no setting reads (a typo) is warned about through `logger` (console.warn by default),
 * except the host's own names in `knownNames` (read by the host itself, such as an example's
 * `JWT_GEOLOCATION_PROVIDER`).
 */
export function settingsFromEnv(
  env: Record<string, string | undefined>,
  { logger = consoleSettingsWarnings, knownNames = [] }: { logger?: SettingsWarningLogger; knownNames?: readonly string[] } = {},
): SessauthOptions {
  warnUnknownEnvNames(env, logger, knownNames);
  const out: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(SETTINGS) as [SettingKey, SettingRow][]) {
    const { env: name, kind } = row;
    const raw = name === null ? undefined : env[name];
    if (name === null || kind.env === undefined || raw === undefined || raw.trim() === '') continue;
    const value = readValue(name, key, kind.env, raw);
    // Enumerations in any case (`cookie`, `LAX`); anything else is left for resolveOptions to reject.
    out[key] = typeof value === 'string' ? (kind.allowed?.find((allowed) => allowed.toLowerCase() === value.toLowerCase()) ?? value) : value;
  }
  // Required settings may be missing here on purpose: resolveOptions reports them by name.
  return out as unknown as SessauthOptions;
}

function readValue(name: string, key: SettingKey, reading: EnvReading, raw: string): unknown {
  const value = raw.trim();
  switch (reading) {
    case 'secret':
      return value.startsWith('-----BEGIN') && raw.includes('\\n') ? raw.replaceAll('\\n', '\n') : raw;
    case 'secret-list':
      // Comma-separated and trimmed: a secret with a comma or edge whitespace goes in code instead.
      return splitList(raw);
    case 'pem-list':
      return pemBlocks(raw.includes('\\n') && !raw.trim().includes('\n') ? raw.replaceAll('\\n', '\n') : raw);
    case 'int':
      if (!/^[+-]?[0-9]+$/.test(value)) throw new SettingsError(name, 'must be an integer', key);
      return Number(value);
    case 'bool':
      return parseBool(name, key, value);
    case 'list':
      return splitList(value);
    case 'string':
      return value;
  }
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseBool(name: string, key: SettingKey, value: string): boolean {
  switch (value.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new SettingsError(name, 'must be true or false (or 1/0)', key);
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
