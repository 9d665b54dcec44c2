import type { Logger } from '../log/logger.js';
import { formatIp, isGloballyRoutable, parseIp } from '../net/ip-address.js';
import type { GeolocationProvider, Location } from './location.js';
import { settleWithin } from '../time/settle-within.js';
import { validateLocation } from './validate-location.js';

export interface LookupLocationOptions {
  /** Upper bound on the provider's time; past it the login goes on without a location. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/** The bound passed; the provider was told through its signal. */
class LookupTimedOut extends Error {}

/**
 * Asks the provider where `ip` is, once, under a time bound. Non-routable
 * addresses never reach the provider. The provider gets an AbortSignal that fires
 * at the bound, and the bound holds even when it ignores the signal. Failures
 * (throw, timeout, nothing usable) are logged without the address and give null:
 * geolocation never fails a login.
 */
export async function lookupLocation(provider: GeolocationProvider | null, ip: string | null, opts: LookupLocationOptions): Promise<Location | null> {
  if (provider === null || ip === null) return null;
  const parsed = parseIp(ip);
  if (parsed === null || !isGloballyRoutable(parsed)) return null;

  const controller = new AbortController();
  let answer: unknown;
  try {
    // Promise.resolve().then() also turns a synchronous throw into a rejection.
    answer = await settleWithin(
      opts.timeoutMs,
      () => Promise.resolve().then(() => provider(formatIp(parsed), controller.signal)),
      () => {
        controller.abort();
        return new LookupTimedOut();
      },
    );
  } catch (error) {
    opts.logger.warn('geolocation_failed', { reason: error instanceof LookupTimedOut ? 'timeout' : 'error' });
    return null;
  }
  if (answer === null || answer === undefined) return null;
  const location = validateLocation(answer);
  if (location === null) opts.logger.warn('geolocation_failed', { reason: 'invalid_result' });
  return location;
}
