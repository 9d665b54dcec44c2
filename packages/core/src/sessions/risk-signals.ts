import type { RiskSignal } from '../events/session-events.js';
import type { Location } from '../geo/location.js';
import { networkRateKey } from '../rate-limit/rate-limit-key.js';

/** A client as the signals compare it: where it was, and when. */
export interface ObservedClient {
  readonly ipAddress: string | null;
  readonly browser: string | null;
  readonly location: Location | null;
  readonly at: Date;
}

/** One raised signal and the figures it rests on. */
export interface RaisedSignal {
  readonly signal: RiskSignal;
  readonly distanceKm?: number;
  readonly speedKmh?: number;
  readonly failedLogins?: number;
}

/** The settings the rules read. */
export interface SignalRules {
  readonly riskNetworkIpv4Prefix: number;
  readonly riskNetworkIpv6Prefix: number;
  readonly riskTravelMaxKmh: number;
}

/**
 * Below this distance two located uses are never impossible travel: geolocation of an
 * address is a city's centre at best, and neighbouring cities are tens of kilometres apart.
 */
export const TRAVEL_FLOOR_KM = 100;

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance (haversine, mean Earth radius) between two located places; null unless both have coordinates. */
export function greatCircleKm(a: Location | null, b: Location | null): number | null {
  if (!hasCoordinates(a) || !hasCoordinates(b)) return null;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function hasCoordinates(location: Location | null): location is Location & { latitude: number; longitude: number } {
  return (
    location !== null &&
    typeof location.latitude === 'number' &&
    typeof location.longitude === 'number' &&
    Number.isFinite(location.latitude) &&
    Number.isFinite(location.longitude) &&
    Math.abs(location.latitude) <= 90 &&
    Math.abs(location.longitude) <= 180
  );
}

/** The country of a location (its code when it has one); null when unknown. */
export function countryOf(location: Location | null): string | null {
  if (location === null) return null;
  const country = location.country_code ?? location.country;
  return typeof country === 'string' && country !== '' ? country.toUpperCase() : null;
}

/** True when both addresses are known and fall in one network of the configured prefixes. */
export function sameNetwork(rules: SignalRules, a: string | null, b: string | null): boolean | null {
  if (a === null || b === null) return null;
  const left = networkRateKey(a, rules.riskNetworkIpv4Prefix, rules.riskNetworkIpv6Prefix);
  const right = networkRateKey(b, rules.riskNetworkIpv4Prefix, rules.riskNetworkIpv6Prefix);
  if (left === 'unknown' || right === 'unknown') return null;
  return left === right;
}

/**
 * Impossible travel from `before` to `after`: both located with coordinates, at least
 * TRAVEL_FLOOR_KM apart, and the speed needed (distance over the time between them) above
 * the configured one. Two uses at the same instant far apart are impossible at any speed.
 */
export function impossibleTravel(rules: SignalRules, before: ObservedClient | null, after: ObservedClient): RaisedSignal | null {
  if (before === null) return null;
  const distanceKm = greatCircleKm(before.location, after.location);
  if (distanceKm === null || distanceKm < TRAVEL_FLOOR_KM) return null;
  const hours = Math.max(0, after.at.getTime() - before.at.getTime()) / 3_600_000;
  const speedKmh = hours === 0 ? Number.POSITIVE_INFINITY : distanceKm / hours;
  if (speedKmh <= rules.riskTravelMaxKmh) return null;
  return { signal: 'impossible_travel', distanceKm: Math.round(distanceKm), speedKmh: Number.isFinite(speedKmh) ? Math.round(speedKmh) : -1 };
}

/**
 * The signals of a refresh from `current`: a new network (outside the login's network and
 * outside the last recorded client's), a new country (against the last located use), impossible
 * travel (against the last located use). `login` and `last` come from the session's history.
 */
export function refreshSignals(
  rules: SignalRules,
  facts: {
    readonly login: ObservedClient;
    readonly last: ObservedClient;
    readonly lastLocated: ObservedClient | null;
    readonly current: ObservedClient;
  },
): RaisedSignal[] {
  const { login, last, lastLocated, current } = facts;
  const raised: RaisedSignal[] = [];
  if (sameNetwork(rules, current.ipAddress, login.ipAddress) === false && sameNetwork(rules, current.ipAddress, last.ipAddress) !== true) {
    raised.push({ signal: 'new_network' });
  }
  const country = countryOf(current.location);
  const before = countryOf(lastLocated?.location ?? null);
  if (country !== null && before !== null && country !== before) raised.push({ signal: 'new_country' });
  const travel = impossibleTravel(rules, lastLocated, current);
  if (travel !== null) raised.push(travel);
  return raised;
}

/**
 * The signals of a login, against the user's other active sessions (`others`: their last
 * recorded clients; none means nothing to compare with, and no signal): a device none of them
 * has, a country none of them was in, impossible travel from the most recent located one.
 */
export function loginSignals(
  rules: SignalRules,
  facts: {
    readonly current: ObservedClient;
    readonly others: readonly ObservedClient[];
    readonly failedLogins: number | null;
    readonly failedLoginsThreshold: number;
  },
): RaisedSignal[] {
  const { current, others } = facts;
  const raised: RaisedSignal[] = [];
  if (others.length > 0 && current.browser !== null && !others.some((other) => other.browser === current.browser)) {
    raised.push({ signal: 'new_device' });
  }
  const country = countryOf(current.location);
  const knownCountries = others.map((other) => countryOf(other.location)).filter((c): c is string => c !== null);
  if (country !== null && knownCountries.length > 0 && !knownCountries.includes(country)) raised.push({ signal: 'new_country' });
  const located = others.filter((other) => hasCoordinates(other.location));
  const latest = located.reduce<ObservedClient | null>((best, other) => (best === null || other.at > best.at ? other : best), null);
  const travel = impossibleTravel(rules, latest, current);
  if (travel !== null) raised.push(travel);
  if (facts.failedLogins !== null && facts.failedLogins >= facts.failedLoginsThreshold) {
    raised.push({ signal: 'failed_logins_then_success', failedLogins: facts.failedLogins });
  }
  return raised;
}
