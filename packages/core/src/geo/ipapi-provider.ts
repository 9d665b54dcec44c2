import { SettingsError } from '../errors/sessauth-error.js';
import type { GeolocationProvider, Location } from './location.js';
import { readLimitedText } from './read-limited-body.js';
import { validateLocation } from './validate-location.js';

export interface IpapiProviderOptions {
  /**
   * Must be `true`: every login's IP address is sent to a third party (ipapi.co
   * or `baseUrl`). Set it only when your users were told and agreed
   * (JWT_GEOLOCATION_THIRD_PARTY_CONSENT).
   */
  readonly thirdPartyConsent: boolean;
  /** An https origin serving the ipapi.co JSON shape at `/<ip>/json/`. @default 'https://ipapi.co' */
  readonly baseUrl?: string;
  /** Bound on the whole lookup (connect, headers, body). The login's own bound still applies. @default 1500 */
  readonly timeoutMs?: number;
  /** Bound on the answer's size in bytes after decompression. @default 16384 */
  readonly maxResponseBytes?: number;
  /** The `fetch` to use (a proxy, a test's trust store). @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

const TEXT_FIELDS = ['city', 'region', 'country_name'] as const;

/**
 * The built-in HTTPS provider for a keyless lookup service with the ipapi.co JSON
 * shape (`{city, region, country_name, country_code, latitude, longitude, error?}`).
 * Off unless `thirdPartyConsent` is true. It follows no redirect (a 3xx is a
 * failure), sends no cookie or referrer, bounds time and bytes, and refuses an
 * answer that is not a well-formed JSON object of that shape (a wrong type or an
 * out-of-range coordinate rejects the whole answer). `error: true` (a reserved or
 * unknown address, a rate limit) means no location. Failures reject; the core
 * then logs them without the address and the login goes on without a location.
 */
export function createIpapiProvider(options: IpapiProviderOptions): GeolocationProvider {
  if (options.thirdPartyConsent !== true) {
    throw new SettingsError('JWT_GEOLOCATION_THIRD_PARTY_CONSENT', 'must be true to send login IP addresses to the ipapi provider');
  }
  const base = httpsBase(options.baseUrl ?? 'https://ipapi.co');
  const timeoutMs = positiveInt('timeoutMs', options.timeoutMs ?? 1500);
  const maxBytes = positiveInt('maxResponseBytes', options.maxResponseBytes ?? 16_384);
  const fetchImpl = options.fetch ?? globalThis.fetch;

  return async (ip, signal) => {
    // `ip` is canonical (digits, hex, ':' and '.'): safe as a path segment.
    const response = await fetchImpl(`${base}/${ip}/json/`, {
      method: 'GET',
      redirect: 'manual',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`geolocation answer with status ${response.status}`);
    }
    return parseIpapiAnswer(JSON.parse(await readLimitedText(response, maxBytes)) as unknown);
  };
}

/** The Location in an ipapi.co answer; throws on anything but that shape. */
export function parseIpapiAnswer(answer: unknown): Location | null {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('not a JSON object');
  const body = answer as Record<string, unknown>;
  if (body.error === true) return null;
  for (const field of TEXT_FIELDS) {
    if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') throw new Error(`bad ${field}`);
  }
  const code = body.country_code;
  if (code !== undefined && code !== null && (typeof code !== 'string' || !/^[A-Za-z]{2}$/.test(code))) throw new Error('bad country_code');
  checkCoordinate(body.latitude, 90);
  checkCoordinate(body.longitude, 180);
  return validateLocation({
    city: body.city,
    region: body.region,
    country: body.country_name,
    country_code: code,
    latitude: body.latitude,
    longitude: body.longitude,
  });
}

function checkCoordinate(value: unknown, bound: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > bound) throw new Error('coordinate out of range');
}

function httpsBase(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingsError('JWT_GEOLOCATION_PROVIDER', 'the ipapi base URL is not a URL');
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new SettingsError('JWT_GEOLOCATION_PROVIDER', 'the ipapi base URL must be a plain https:// URL');
  }
  return url.href.replace(/\/+$/, '');
}

function positiveInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new SettingsError(`ipapi ${name}`, 'must be a positive integer');
  return value;
}
