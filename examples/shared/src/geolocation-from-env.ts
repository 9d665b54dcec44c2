import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createIpapiProvider, SettingsError, type GeolocationProvider } from '@sessauth/core';
import { createMmdbProvider } from '@sessauth/core/mmdb';

/** The variables this example reads itself (the core's settingsFromEnv is told they are not typos). */
export const GEOLOCATION_ENV_NAMES = ['JWT_GEOLOCATION_PROVIDER', 'JWT_GEOLOCATION_THIRD_PARTY_CONSENT'] as const;

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0', '']);

/**
 * The provider `JWT_GEOLOCATION_PROVIDER` names:
 * - unset or blank: no geolocation;
 * - `ipapi`: the HTTPS lookup at ipapi.co, which sees every login's IP address, so it
 *   also needs `JWT_GEOLOCATION_THIRD_PARTY_CONSENT=true`;
 * - `mmdb:<path>`: the offline lookup in a MaxMind-format file you supply;
 * - anything else: the path of an ES module whose default export is the provider
 *   (a function `(ip, signal) => Location | null`).
 * Relative paths are read from the working directory. A bad value stops start-up
 * with a message naming the setting.
 */
export async function geolocationFromEnv(env: NodeJS.ProcessEnv): Promise<GeolocationProvider | null> {
  const setting = env.JWT_GEOLOCATION_PROVIDER?.trim() ?? '';
  const consent = (env.JWT_GEOLOCATION_THIRD_PARTY_CONSENT ?? '').trim().toLowerCase();
  if (!TRUE.has(consent) && !FALSE.has(consent)) {
    throw new SettingsError('JWT_GEOLOCATION_THIRD_PARTY_CONSENT', 'must be true or false');
  }
  if (setting === '') return null;
  if (setting === 'ipapi') {
    if (!TRUE.has(consent)) {
      throw new SettingsError(
        'JWT_GEOLOCATION_THIRD_PARTY_CONSENT',
        'must be true to use JWT_GEOLOCATION_PROVIDER=ipapi (every login IP is sent to ipapi.co)',
      );
    }
    return createIpapiProvider({ thirdPartyConsent: true });
  }
  if (setting.startsWith('mmdb:')) {
    const path = setting.slice('mmdb:'.length);
    if (path === '') throw new SettingsError('JWT_GEOLOCATION_PROVIDER', 'mmdb: needs the path of a .mmdb file');
    return createMmdbProvider({ path: absolute(path) });
  }
  return providerFromModule(absolute(setting));
}

async function providerFromModule(path: string): Promise<GeolocationProvider> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (cause) {
    const error = new SettingsError(
      'JWT_GEOLOCATION_PROVIDER',
      `cannot load the provider module (expected ipapi, mmdb:<path> or a module path): ${(cause as Error).message}`,
    );
    throw Object.assign(error, { cause });
  }
  if (typeof loaded.default !== 'function') {
    throw new SettingsError('JWT_GEOLOCATION_PROVIDER', "the module's default export must be a function (ip, signal) => Location | null");
  }
  return loaded.default as GeolocationProvider;
}

function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}
