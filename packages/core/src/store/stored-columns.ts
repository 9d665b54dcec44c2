import type { Location } from '../geo/location.js';

/**
 * Readers of the session columns every store keeps as JSON text. Both are forgiving on purpose:
 * a value that does not parse (a row edited by hand, an old format) reads as "unknown", never as
 * a failed request.
 */

/** The authentication methods (`amr`): policy data, so an unreadable value reads as none (`[]`). */
export function parseStoredAmr(text: string | null | undefined): string[] {
  if (text === null || text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];
  } catch {
    return [];
  }
}

/** The location: display data, so an unreadable value is dropped (`null`). */
export function parseStoredLocation(text: string | null | undefined): Location | null {
  if (text === null || text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Location) : null;
  } catch {
    return null;
  }
}
