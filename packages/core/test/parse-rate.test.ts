import { describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { parseRate } from '../src/options/parse-rate.js';

describe('parseRate', () => {
  it.each([
    ['5/min', 5, 60],
    ['30/min', 30, 60],
    ['100/hour', 100, 3600],
    ['10/sec', 10, 1],
    ['1000/day', 1000, 86_400],
    ['7/s', 7, 1],
    ['7/m', 7, 60],
    ['7/h', 7, 3600],
    ['7/d', 7, 86_400],
    ['7/second', 7, 1],
    ['7/minute', 7, 60],
    ['7/minutes', 7, 60],
    ['7/MIN', 7, 60],
    ['1000000000/day', 1_000_000_000, 86_400],
  ])('parses %s', (value, limit, windowSec) => {
    expect(parseRate(value, 'JWT_LOGIN_THROTTLE_RATE')).toEqual({ limit, windowSec });
  });

  it('returns null for "0" (throttle disabled)', () => {
    expect(parseRate('0', 'JWT_LOGIN_THROTTLE_RATE')).toBeNull();
  });

  it('returns a frozen spec', () => {
    expect(Object.isFrozen(parseRate('5/min', 'X'))).toBe(true);
  });

  it.each([
    '',
    ' ',
    '0/min',
    '00',
    '5',
    '/min',
    '5/',
    '5/fortnight',
    '5 / min',
    ' 5/min',
    '5/min ',
    '-5/min',
    '5.5/min',
    '05/min',
    '1e3/min',
    '5/min/2',
    '1000000001/min',
    '99999999999/min',
    'five/min',
    '5/mins',
  ])('rejects %j naming the setting', (value) => {
    let caught: unknown;
    try {
      parseRate(value, 'JWT_REFRESH_THROTTLE_RATE');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    expect((caught as SettingsError).setting).toBe('JWT_REFRESH_THROTTLE_RATE');
    expect((caught as SettingsError).message).toMatch(/^JWT_REFRESH_THROTTLE_RATE: /);
  });

  it('rejects a non-string at run time', () => {
    expect(() => parseRate(5 as unknown as string, 'JWT_LOGIN_THROTTLE_RATE')).toThrow(SettingsError);
  });
});
