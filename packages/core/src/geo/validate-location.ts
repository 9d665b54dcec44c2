import type { Location } from './location.js';
import { hasControlOrLoneSurrogate } from '../text/unsafe-text.js';

const MAX_TEXT_LENGTH = 128;
// Control characters and lone surrogates: a provider's answer is untrusted input
// that ends up in the store and in JSON sent to browsers.
const COUNTRY_CODE = /^[A-Za-z]{2}$/;

type TextField = 'city' | 'region' | 'country';
const TEXT_FIELDS: readonly TextField[] = ['city', 'region', 'country'];

/**
 * Keeps only the well-formed, known fields of a provider's answer: texts trimmed to
 * 1..128 characters without control characters, `country_code` two ASCII letters
 * (upper-cased), finite latitude in [-90, 90] and longitude in [-180, 180]. A bad
 * field is dropped, not the whole answer; null when nothing valid remains.
 */
export function validateLocation(x: unknown): Location | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const source = x as Record<string, unknown>;
  const location: Location = {};
  for (const field of TEXT_FIELDS) {
    const text = cleanText(ownValue(source, field));
    if (text !== null) location[field] = text;
  }
  const code = ownValue(source, 'country_code');
  if (typeof code === 'string' && COUNTRY_CODE.test(code.trim())) {
    location.country_code = code.trim().toUpperCase();
  }
  const latitude = ownValue(source, 'latitude');
  if (isNumberIn(latitude, 90)) location.latitude = latitude;
  const longitude = ownValue(source, 'longitude');
  if (isNumberIn(longitude, 180)) location.longitude = longitude;
  return Object.keys(location).length === 0 ? null : location;
}

/** Reads an own property only, so a polluted prototype cannot supply fields. */
function ownValue(source: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

function cleanText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.length === 0 || text.length > MAX_TEXT_LENGTH || hasControlOrLoneSurrogate(text)) return null;
  return text;
}

function isNumberIn(value: unknown, bound: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= -bound && value <= bound;
}
