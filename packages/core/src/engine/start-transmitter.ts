import { IntegrationError } from '../errors/sessauth-error.js';
import type { Logger } from '../log/logger.js';
import type { ResolvedOptions } from '../options/options.js';
import { createOutboxDispatcher } from '../ssf/outbox-dispatcher.js';
import { createSecurityEventWriter, type SecurityEventWriter } from '../ssf/security-event-writer.js';
import { securityEventOutboxOf } from '../store/security-event-outbox.js';
import type { SessionStore } from '../store/store-port.js';
import type { Clock } from '../time/clock.js';
import type { TokenService } from '../tokens/token-service.js';
import type { SecurityEventsControl } from './sessauth.js';

/** The transmitter's two halves: the writer the session domain calls, the loop the host controls. */
export interface Transmitter {
  readonly writer: SecurityEventWriter;
  readonly control: SecurityEventsControl;
}

/**
 * JWT_SSF_TRANSMITTER on: the store must have the outbox operations (refused at start-up
 * otherwise, naming what is missing); the delivery loop starts at once, so what a previous
 * process left in the outbox goes out on this start.
 */
export function startTransmitter(deps: {
  options: ResolvedOptions;
  store: SessionStore;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
}): Transmitter {
  const { options, store, tokens, clock, logger } = deps;
  const outbox = securityEventOutboxOf(store);
  if (outbox === null) {
    throw new IntegrationError(
      'JWT_SSF_TRANSMITTER: the store has no security event outbox (holdSecurityEvents, releaseSecurityEvents, claimSecurityEvents, settleSecurityEvent); the memory, Kysely and Redis stores have it, the Drizzle and Prisma stores with their securityEventOutbox option (run the migrations)',
    );
  }
  if (options.ssfReceivers.length === 0) logger.warn('ssf_no_receivers', {});
  const dispatcher = createOutboxDispatcher({ options, outbox, store, clock, logger });
  const writer = createSecurityEventWriter({
    options,
    outbox,
    sign: (claims) => tokens.signSecurityEvent(claims),
    clock,
    onReady: () => dispatcher.kick(),
  });
  return { writer, control: { deliverDue: () => dispatcher.deliverDue(), stop: () => dispatcher.stop() } };
}
