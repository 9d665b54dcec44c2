import { systemClock } from './clock.js';
import type { Engine } from './engine.js';
import { handleRequest } from './http/handler.js';
import { errorToResponse } from './http/response.js';
import { consoleLogger } from './logger.js';
import { parseCidrs } from './net/parse-cidrs.js';
import { isResolvedOptions, resolveOptions } from './options/resolve-options.js';
import { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store.js';
import { authenticate } from './session/authenticate.js';
import { createStampDigest } from './session/security-stamp.js';
import type { Sessauth, SessauthConfig } from './sessauth.js';
import { createTokenService } from './tokens/token-service.js';

/**
 * Builds the engine once: options validated (a bad setting throws a `SettingsError`
 * naming it), keys imported once, trusted proxies parsed once.
 */
export async function createSessauth<U>(config: SessauthConfig<U>): Promise<Sessauth<U>> {
  const options = isResolvedOptions(config.options) ? config.options : resolveOptions(config.options);
  const clock = config.clock ?? systemClock;
  const engine: Engine<U> = {
    options,
    store: config.store,
    users: config.users,
    authenticator: config.authenticator,
    rateLimitStore: config.rateLimitStore ?? new MemoryRateLimitStore(),
    geolocation: config.geolocation ?? null,
    isAdmin: config.isAdmin ?? (() => false),
    tokens: await createTokenService(options, clock),
    trustedProxies: parseCidrs(options.trustedProxyCidrs),
    clock,
    logger: config.logger ?? consoleLogger,
    stampDigest: await createStampDigest(options.secretKey),
  };
  return {
    options,
    handle: (request) => handleRequest(engine, request),
    authenticate: (input) => authenticate(engine, input),
    errorResponse: (error) => errorToResponse(error, engine.logger),
    invalidateAllForUser: (userId) => engine.store.expireAllForUser(userId, clock.now()),
    purgeExpired: () => engine.store.purgeExpired(clock.now()),
  };
}
