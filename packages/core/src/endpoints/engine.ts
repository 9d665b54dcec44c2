import type { Clock } from '../time/clock.js';
import type { EventBus } from '../events/event-bus.js';
import type { GeolocationProvider } from '../geo/location.js';
import type { Logger } from '../log/logger.js';
import type { CidrList } from '../net/parse-cidrs.js';
import type { ResolvedOptions } from '../options/options.js';
import type { AdminSessionPage, AdminSessionQuery, RateLimitStore, SessionStore } from '../store/store-port.js';
import type { TokenService } from '../tokens/token-service.js';
import type { Authenticator, UserPort } from '../users/user-port.js';

/** What the admin listing needs: who may see it, and the store's listing capability. */
export interface AdminCapability<U> {
  readonly isAdmin: (user: U) => boolean;
  readonly list: (query: AdminSessionQuery) => Promise<AdminSessionPage>;
}

/** Everything a route needs, built once by `createSessauth`. Internal. */
export interface Engine<U> {
  readonly options: ResolvedOptions;
  readonly store: SessionStore;
  readonly users: UserPort<U>;
  readonly authenticator: Authenticator<U>;
  readonly rateLimitStore: RateLimitStore;
  readonly geolocation: GeolocationProvider | null;
  /** The admin listing, when the host turned it on; null: its paths are not ours. */
  readonly admin: AdminCapability<U> | null;
  readonly tokens: TokenService;
  readonly trustedProxies: CidrList;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventBus;
  /** HMAC of a user's security stamp, as stored on the session. */
  readonly stampDigest: (stamp: string) => Promise<string>;
}
