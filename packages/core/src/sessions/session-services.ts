import type { EventBus } from '../events/event-bus.js';
import type { GeolocationProvider } from '../geo/location.js';
import type { Logger } from '../log/logger.js';
import type { ResolvedOptions } from '../options/options.js';
import type { SessionStore } from '../store/store-port.js';
import type { Clock } from '../time/clock.js';
import type { TokenService } from '../tokens/token-service.js';
import type { UserPort } from '../users/user-port.js';
import type { SecurityEventWriter } from '../ssf/security-event-writer.js';

/**
 * What the session domain works with, built once by `createSessauth`: no HTTP in it. The
 * endpoints' `Engine` adds the request-side services (throttling, the authenticator,
 * trusted proxies, the admin listing). Internal.
 */
export interface SessionServices<U> {
  readonly options: ResolvedOptions;
  readonly store: SessionStore;
  /**
   * The store as event payloads read it after the response: the engine's own, never a
   * finished request's store budget (which would refuse the read and lose the event).
   */
  readonly eventStore: SessionStore;
  readonly users: UserPort<U>;
  readonly geolocation: GeolocationProvider | null;
  readonly tokens: TokenService;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventBus;
  /** The Shared Signals outbox writer; null unless JWT_SSF_TRANSMITTER is on. */
  readonly securityEvents: SecurityEventWriter | null;
  /** HMAC of a user's security stamp, as stored on the session. */
  readonly stampDigest: (stamp: string) => Promise<string>;
}
