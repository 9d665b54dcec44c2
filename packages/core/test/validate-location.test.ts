import { describe, expect, it } from 'vitest';
import { validateLocation } from '../src/geo/validate-location.js';

describe('validateLocation', () => {
  it('keeps every valid field, trimmed, with the country code upper-cased', () => {
    expect(
      validateLocation({
        city: ' Berlin ',
        region: 'Berlin',
        country: 'Germany',
        country_code: 'de',
        latitude: 52.52,
        longitude: 13.405,
      }),
    ).toEqual({ city: 'Berlin', region: 'Berlin', country: 'Germany', country_code: 'DE', latitude: 52.52, longitude: 13.405 });
  });

  it('drops unknown fields', () => {
    expect(validateLocation({ city: 'Paris', isp: 'x', ip: '203.0.113.1' })).toEqual({ city: 'Paris' });
  });

  it.each([
    [{ city: 'Oslo', latitude: 91 }],
    [{ city: 'Oslo', latitude: -90.5 }],
    [{ city: 'Oslo', longitude: 180.01 }],
    [{ city: 'Oslo', latitude: Number.NaN }],
    [{ city: 'Oslo', longitude: Number.POSITIVE_INFINITY }],
    [{ city: 'Oslo', latitude: '59.9' }],
    [{ city: 'Oslo', country_code: 'NOR' }],
    [{ city: 'Oslo', country_code: 'N0' }],
    [{ city: 'Oslo', country_code: 'ÑO' }],
    [{ city: 'Oslo', country: '' }],
    [{ city: 'Oslo', country: '   ' }],
    [{ city: 'Oslo', country: 'x'.repeat(129) }],
    [{ city: 'Oslo', region: 'Ost\u0000land' }],
    [{ city: 'Oslo', region: 'Ost\nland' }],
    [{ city: 'Oslo', region: 'Ost\ud800land' }],
    [{ city: 'Oslo', region: 42 }],
  ])('drops the bad field of %j', (input) => {
    expect(validateLocation(input)).toEqual({ city: 'Oslo' });
  });

  it('keeps boundary values', () => {
    expect(validateLocation({ latitude: -90, longitude: 180, country: 'x'.repeat(128) })).toEqual({
      latitude: -90,
      longitude: 180,
      country: 'x'.repeat(128),
    });
  });

  it.each([[null], [undefined], ['Berlin'], [42], [[{ city: 'Berlin' }]], [{}], [{ latitude: 400 }]])('gives null for %j', (input) => {
    expect(validateLocation(input)).toBeNull();
  });

  it('ignores inherited properties', () => {
    expect(validateLocation(Object.create({ city: 'Inherited' }))).toBeNull();
  });
});
