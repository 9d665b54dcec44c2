/** Where a login IP appeared to be. Every field is optional. */
export interface Location {
  city?: string;
  region?: string;
  country?: string;
  /** Two-letter code. */
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

/**
 * The seed's provider interface: an IP in, a Location or null out. It never sees a
 * non-routable address, runs once per login under a time bound, and may throw:
 * the login then completes with `location: null`.
 */
export type GeolocationProvider = (ip: string, signal: AbortSignal) => Promise<Location | null> | Location | null;
