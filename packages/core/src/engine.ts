import type { Clock } from './clock.js';
import type { GeolocationProvider } from './geo/location.js';
import type { Logger } from './logger.js';
import type { CidrList } from './net/parse-cidrs.js';
import type { ResolvedOptions } from './options/options.js';
import type { RateLimitStore, SessionStore } from './store/store-port.js';
import type { TokenService } from './tokens/token-service.js';
import type { Authenticator, UserPort } from './users/user-port.js';

/** Everything a route needs, built once by `createSessauth`. Internal. */
export interface Engine<U> {
  readonly options: ResolvedOptions;
  readonly store: SessionStore;
  readonly users: UserPort<U>;
  readonly authenticator: Authenticator<U>;
  readonly rateLimitStore: RateLimitStore;
  readonly geolocation: GeolocationProvider | null;
  readonly isAdmin: (user: U) => boolean;
  readonly tokens: TokenService;
  readonly trustedProxies: CidrList;
  readonly clock: Clock;
  readonly logger: Logger;
  /** HMAC of a user's security stamp, as stored on the session. */
  readonly stampDigest: (stamp: string) => Promise<string>;
}
