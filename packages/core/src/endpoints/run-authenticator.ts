import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import type { Logger } from '../log/logger.js';
import type { Engine } from './engine.js';
import { throttleResolvedAccount } from './throttle-request.js';

/** One `password_hasher_saturated` line per this many milliseconds at most, with the count of refusals since the last. */
const SATURATION_LOG_INTERVAL_MS = 10_000;
const saturation = new WeakMap<Logger, { refused: number; lastLine: number }>();

/**
 * Every password check (the login, the admin sign-in, the password change) through the host's
 * authenticator, with what it receives besides the body: the settings, the request's signal
 * (a check whose client has gone is dropped), and the per-account budget under the user the
 * name resolves to. A hasher that refuses work (429 `login_busy`) is logged here, through the
 * host's logger, as saturation: not a store fault, and one line per interval during a flood.
 */
export async function runAuthenticator<U>(
  engine: Engine<U>,
  body: Readonly<Record<string, unknown>>,
  request: Pick<SessauthRequest, 'signal'>,
  username: unknown,
): Promise<U> {
  const { authenticator } = engine;
  // Unreachable through the login (no route without it) or the admin sign-in (refused at start).
  if (authenticator === null) throw new IntegrationError('checking a password needs an authenticator: pass one to createSessauth');
  try {
    return await authenticator(body, {
      options: engine.options,
      signal: request.signal,
      accountAttempt: (userId) => throttleResolvedAccount(engine, username, userId),
    });
  } catch (error) {
    if (error instanceof SessauthError && error.code === 'login_busy') logSaturation(engine.logger);
    throw error;
  }
}

function logSaturation(logger: Logger): void {
  const state = saturation.get(logger) ?? { refused: 0, lastLine: Number.NEGATIVE_INFINITY };
  saturation.set(logger, state);
  state.refused += 1;
  const now = performance.now();
  if (now - state.lastLine < SATURATION_LOG_INTERVAL_MS) return;
  logger.warn('password_hasher_saturated', {
    refused: state.refused,
    hint: 'logins are answered 429 login_busy while the password hasher has no place free; see maxConcurrent and maxQueued of the hasher, or JWT_LOGIN_NETWORK_THROTTLE_RATE',
  });
  state.refused = 0;
  state.lastLine = now;
}
