import { systemClock } from '../time/clock.js';
import { EventBus } from '../events/event-bus.js';
import { handleRequest, isOurPath } from './handle-request.js';
import { errorToResponse } from '../http/response.js';
import { consoleLogger } from '../log/logger.js';
import { parseCidrs } from '../net/parse-cidrs.js';
import { isResolvedOptions, resolveOptions } from '../options/resolve-options.js';
import { MemoryRateLimitStore } from '../rate-limit/memory-rate-limit-store.js';
import { MemorySessionStore } from '../store/memory-store.js';
import { rateLimit } from './rate-limit-api.js';
import { adminListerOf } from '../store/store-port.js';
import { checkStoreSchemas } from '../store/check-store-schemas.js';
import { coalesceSessionReads } from '../store/coalesce-session-reads.js';
import { changePasswordRoute } from '../endpoints/change-password.js';
import { authenticateBearer } from '../endpoints/bearer-guard.js';
import { sessionApi } from './session-api.js';
import { assertFresh, checkFreshnessRule } from '../sessions/freshness.js';
import { createStampDigest } from '../sessions/security-stamp.js';
import { checkPasswordHasher } from '../password/hasher-policy.js';
import type { Sessauth, SessauthConfig } from './sessauth.js';
import type { AdminCapability, Engine } from '../endpoints/engine.js';
import { IntegrationError } from '../errors/sessauth-error.js';
import { createTokenService } from '../tokens/token-service.js';
import { startTransmitter, type Transmitter } from './start-transmitter.js';

/**
 * Builds the engine once: options validated (a bad setting throws a `SettingsError`
 * naming it), keys imported once, trusted proxies parsed once, and each store's
 * optional `checkSchema()` run: a schema behind this version's migrations rejects with a
 * `StoreSchemaError`; a store that cannot be reached is logged (`store_unverified`)
 * and does not stop the start.
 */
export async function createSessauth<U>(config: SessauthConfig<U>): Promise<Sessauth<U>> {
  // An unknown option key is warned about through the host's logger when it passes one.
  const options = isResolvedOptions(config.options)
    ? config.options
    : resolveOptions(config.options, config.logger === undefined ? {} : { logger: config.logger });
  const clock = config.clock ?? systemClock;
  const logger = config.logger ?? consoleLogger;
  const tokens = await createTokenService(options, clock);
  const transmitter: Transmitter | null = options.ssfTransmitter ? startTransmitter({ options, store: config.store, tokens, clock, logger }) : null;
  const engine: Engine<U> = {
    options,
    // The memory store answers in the same turn: a batch could only add a wait (measured in
    // bench/results/coalesced-reads.md), so it is read one call at a time.
    store: options.coalesceSessionReads && !(config.store instanceof MemorySessionStore) ? coalesceSessionReads(config.store) : config.store,
    eventStore: config.store,
    users: config.users,
    authenticator: config.authenticator ?? null,
    rateLimitStore: config.rateLimitStore ?? new MemoryRateLimitStore(),
    geolocation: config.geolocation ?? null,
    admin: adminCapability(config),
    tokens,
    securityEvents: transmitter?.writer ?? null,
    trustedProxies: parseCidrs(options.trustedProxyCidrs),
    clock,
    logger,
    events: new EventBus(logger, config.events),
    stampDigest: await createStampDigest(options.securityStampKey),
  };
  try {
    await checkStoreSchemas({ session: config.store, rateLimit: config.rateLimitStore }, logger);
    checkPasswordHasher(config.authenticator?.passwordHasher, logger, config.allowWeakPasswordHasher === true);
  } catch (error) {
    // A refused start leaves no delivery loop polling the store behind it.
    await transmitter?.control.stop();
    throw error;
  }
  return {
    options,
    openApiSettings: {
      ...options,
      loginRoute: engine.authenticator !== null,
      ssfStreamEndpoints: options.ssfTransmitter && engine.admin !== null,
    },
    handle: (request) => handleRequest(engine, request),
    handles: (target, mountPath) => isOurPath(options, target, engine.admin !== null, mountPath),
    authenticate: (input) => authenticateBearer(engine, input),
    authenticateOptional: async (input) =>
      input.authorization === undefined || input.authorization.length === 0 ? null : authenticateBearer(engine, input),
    assertFresh: (context, rule) => assertFresh(context.session, clock.now(), checkFreshnessRule(rule)),
    errorResponse: (error) => errorToResponse(error, engine.logger),
    changePassword: (request, caller, setPassword) => changePasswordRoute(engine, request, caller, setPassword),
    ...sessionApi(engine),
    rateLimit: (key, rate) => rateLimit(engine, key, rate),
    on: (name, handler) => engine.events.on(name, handler),
    purgeExpired: () => engine.store.purgeExpired(clock.now()),
    eventsSettled: () => engine.events.settled(),
    ...(transmitter === null ? {} : { securityEvents: transmitter.control }),
  };
}

function adminCapability<U>(config: SessauthConfig<U>): AdminCapability<U> | null {
  if (config.admin === undefined) return null;
  const { store } = config;
  if (typeof store.listSessionsForAdmin !== 'function') {
    throw new IntegrationError('admin: the admin listing needs a store with listSessionsForAdmin (the memory, Kysely and Redis stores have it)');
  }
  if (typeof config.admin.isAdmin !== 'function') throw new IntegrationError('admin.isAdmin must be a function of the user');
  if (config.authenticator === undefined) {
    throw new IntegrationError('admin: the admin listing signs in with a password and needs an authenticator (createPasswordAuthenticator)');
  }
  return { isAdmin: config.admin.isAdmin, list: adminListerOf(store) };
}
