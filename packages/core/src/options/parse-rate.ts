import { SettingsError } from '../errors/sessauth-error.js';
import type { RateSpec } from './options.js';

const WINDOW_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};

// Far above any sane limit, far below Number.MAX_SAFE_INTEGER.
const MAX_LIMIT = 1_000_000_000;

/**
 * Parses a throttle rate such as `5/min`, `30/minute`, `100/hour`, `10/s`, `1000/day`
 * into `{ limit, windowSec }`. `0` disables the throttle (`null`). Anything else, `0/min`
 * included (ambiguous: "off" or "deny all"?), throws a `SettingsError` naming `setting` (and `key`).
 */
export function parseRate(value: string, setting: string, key?: string): RateSpec | null {
  if (typeof value !== 'string') throw new SettingsError(setting, 'must be a string such as "5/min", or "0" to disable', key);
  if (value === '0') return null;
  const match = /^([1-9][0-9]{0,9})\/([a-zA-Z]+)$/.exec(value);
  const limit = match ? Number(match[1]) : Number.NaN;
  const windowSec = match ? WINDOW_SECONDS[match[2]!.toLowerCase()] : undefined;
  if (windowSec === undefined || !(limit <= MAX_LIMIT)) {
    throw new SettingsError(
      setting,
      `invalid rate (expected <count>/<sec|min|hour|day> with a count of 1..${MAX_LIMIT}, such as "5/min", or "0" to disable)`,
      key,
    );
  }
  return Object.freeze({ limit, windowSec });
}
