import type { CidrList } from '../net/parse-cidrs.js';
import type { SessionServices } from '../sessions/session-services.js';
import type { AdminSessionPage, AdminSessionQuery, RateLimitStore } from '../store/store-port.js';
import type { Authenticator } from '../users/user-port.js';

/** What the admin listing needs: who may see it, and the store's listing capability. */
export interface AdminCapability<U> {
  readonly isAdmin: (user: U) => boolean;
  readonly list: (query: AdminSessionQuery) => Promise<AdminSessionPage>;
}

/** Everything an endpoint needs: the session domain's services and the request-side ones. Internal. */
export interface Engine<U> extends SessionServices<U> {
  /** How `POST {prefix}/login/` turns a body into a user; null: no login endpoint. */
  readonly authenticator: Authenticator<U> | null;
  readonly rateLimitStore: RateLimitStore;
  /** X-Forwarded-For is read only from these peers. */
  readonly trustedProxies: CidrList;
  /** The admin listing, when the host turned it on; null: its paths are not ours. */
  readonly admin: AdminCapability<U> | null;
}
