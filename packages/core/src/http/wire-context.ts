import type { Logger } from '../log/logger.js';
import type { CidrList } from '../net/parse-cidrs.js';
import type { ResolvedOptions } from '../options/options.js';

/** The settings the wire rules read (client address, HTTPS, own host, CSRF); the engine is one. */
export interface WireContext {
  readonly options: ResolvedOptions;
  /** X-Forwarded-For and X-Forwarded-Proto are read only from these peers. */
  readonly trustedProxies: CidrList;
  readonly logger: Logger;
}
