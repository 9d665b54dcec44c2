import type { Location } from '../location.js';
import { validateLocation } from '../validate-location.js';

type Fields = Record<string, unknown>;

const asObject = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;

/** `names[language]` of a MaxMind place record, falling back to English. */
function nameOf(place: unknown, language: string): unknown {
  const names = asObject(asObject(place)?.names);
  return names?.[language] ?? names?.en;
}

/**
 * The Location in one record of a MaxMind-format database. Two layouts are read:
 * MaxMind's own (GeoIP2/GeoLite2 City and Country: `city.names`, `subdivisions[0]`,
 * `country.iso_code`, `location.latitude`...) and the flat one of the free
 * ip-location-db and similar files (`country_code`, `city`, `state1`, `latitude`...).
 * The result is validated like any provider's answer; null when nothing usable.
 */
export function mmdbRecordToLocation(record: unknown, language = 'en'): Location | null {
  const data = asObject(record);
  if (data === undefined) return null;
  const country = asObject(data.country) ?? asObject(data.registered_country);
  if (country !== undefined || asObject(data.city) !== undefined || asObject(data.location) !== undefined) {
    const subdivisions = Array.isArray(data.subdivisions) ? (data.subdivisions as unknown[]) : [];
    const location = asObject(data.location);
    return validateLocation({
      city: nameOf(data.city, language),
      region: nameOf(subdivisions[0], language),
      country: nameOf(country, language),
      country_code: country?.iso_code,
      latitude: location?.latitude,
      longitude: location?.longitude,
    });
  }
  return validateLocation({
    city: data.city,
    region: data.state1 ?? data.region,
    country: data.country_name,
    country_code: data.country_code,
    latitude: data.latitude,
    longitude: data.longitude,
  });
}
