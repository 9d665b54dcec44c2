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
import { adminListerOf, type SessionStore } from '../store/store-port.js';
import type { ResolvedOptions } from '../options/options.js';
import { checkStoreSchemas } from '../store/check-store-schemas.js';
import { coalesceSessionReads } from '../store/coalesce-session-reads.js';
import { changePasswordRoute } from '../endpoints/change-password.js';
import { type AuthenticateInput, authenticateBearer, authenticateOptionalBearer } from '../endpoints/bearer-guard.js';
import type { AuthContext } from '../sessions/authenticate.js';
import { type InstrumentedOperation, outcomeOfError, type SessauthInstrumentation, type StoreRole } from './instrumentation.js';
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
  checkActivityStore(options, config.store);
  const { instrumentation } = config;
  // The observer wraps each store once, here, outside the coalescer: a span or a timing is a
  // call as the engine made it. Without an observer the stores are the host's own objects.
  const observed = <S extends object>(store: S, role: StoreRole): S => instrumentation?.wrapStore?.(store, role) ?? store;
  const tokens = await createTokenService(options, clock);
  const transmitter: Transmitter | null = options.ssfTransmitter ? startTransmitter({ options, store: config.store, tokens, clock, logger }) : null;
  const engine: Engine<U> = {
    options,
    // The memory store answers in the same turn: a batch could only add a wait (measured in
    // bench/results/coalesced-reads.md), so it is read one call at a time.
    store: observed(
      options.coalesceSessionReads && !(config.store instanceof MemorySessionStore) ? coalesceSessionReads(config.store) : config.store,
      'session',
    ),
    eventStore: observed(config.store, 'session'),
    users: config.users,
    authenticator: config.authenticator ?? null,
    rateLimitStore: observed(config.rateLimitStore ?? new MemoryRateLimitStore(), 'rate-limit'),
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
  instrumentation?.subscribe?.((name, handler) => engine.events.on(name, handler));
  // Chosen once: without an observer the guard is the plain call, not a test per request.
  const guard: (input: AuthenticateInput) => Promise<AuthContext<U>> =
    instrumentation === undefined
      ? (input) => authenticateBearer(engine, input)
      : (input) => observedGuard(instrumentation, () => authenticateBearer(engine, input));
  const optionalGuard: (input: AuthenticateInput) => Promise<AuthContext<U> | null> =
    instrumentation === undefined
      ? (input) => authenticateOptionalBearer(engine, input)
      : (input) => observedGuard(instrumentation, () => authenticateOptionalBearer(engine, input));
  return {
    options,
    openApiSettings: {
      ...options,
      loginRoute: engine.authenticator !== null,
      ssfStreamEndpoints: options.ssfTransmitter && engine.admin !== null,
      deviceBoundCookies: options.deviceBoundCookies && options.refreshTokenTransport !== 'body' && engine.store.bindDeviceKey !== undefined,
    },
    handle:
      instrumentation === undefined ? (request) => handleRequest(engine, request) : (request) => handleRequest(engine, request, instrumentation),
    handles: (target, mountPath) => isOurPath(options, target, engine.admin !== null, mountPath),
    authenticate: guard,
    authenticateOptional: optionalGuard,
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

/** The activity history is refused at start-up on a store that cannot keep it, never at the first login. */
function checkActivityStore(options: ResolvedOptions, store: SessionStore): void {
  if (!options.sessionActivity) return;
  if (typeof store.appendActivity !== 'function' || typeof store.listActivity !== 'function') {
    throw new IntegrationError(
      'JWT_SESSION_ACTIVITY needs a store with appendActivity and listActivity (the memory and Redis stores have them; the Kysely, Drizzle and Prisma stores with their activity option)',
    );
  }
}

const GUARD_OPERATION: InstrumentedOperation = { name: 'guard', route: null, method: null };

/** The host guard as one operation of the observer: 200 when it let the caller in, else its error's status and code. */
function observedGuard<C>(instrumentation: SessauthInstrumentation, runGuard: () => Promise<C>): Promise<C> {
  return instrumentation.run(GUARD_OPERATION, async (report) => {
    try {
      const context = await runGuard();
      report({ status: 200, errorCode: null });
      return context;
    } catch (error) {
      report(outcomeOfError(error));
      throw error;
    }
  });
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
