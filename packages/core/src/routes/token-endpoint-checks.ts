import type { Engine } from '../engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { usesRefreshCookie } from '../http/auth-cookies.js';
import { clientIpOf, isSecureRequest } from '../http/client-identity.js';
import { parseCookieHeader } from '../http/cookies.js';
import { checkCsrf } from '../http/csrf.js';
import { assertJsonContentType } from '../http/read-json-body.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { clientRateKey } from '../rate-limit/rate-limit-key.js';
import { throttle } from '../rate-limit/throttle.js';

export interface CheckedRequest {
  readonly clientIp: string | null;
  readonly cookies: Map<string, string[]>;
}

/**
 * The pre-checks of login and refresh, in the contract's order: 415 content type,
 * 403 CSRF (cookie and both transports), 429 throttle. Each runs only when the one
 * before passed, so a refused request spends no rate budget.
 */
export async function checkTokenEndpointRequest<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  scope: 'login' | 'refresh',
): Promise<CheckedRequest> {
  assertJsonContentType(request);
  const cookies = parseCookieHeader(headerValues(request.headers, 'cookie'));
  const { options } = engine;
  if (usesRefreshCookie(options)) {
    const hosts = headerValues(request.headers, 'host');
    const passed = checkCsrf({
      method: request.method,
      headerTokens: headerValues(request.headers, 'x-csrftoken'),
      cookieValues: cookies.get(options.csrfCookieName),
      origin: headerValues(request.headers, 'origin'),
      referer: headerValues(request.headers, 'referer'),
      host: hosts?.length === 1 ? hosts[0] : undefined,
      secure: isSecureRequest(engine, request),
      trustedOrigins: options.csrfTrustedOrigins,
    });
    if (!passed) throw new SessauthError('csrf_failed');
  }
  const clientIp = clientIpOf(engine, request);
  await throttle(engine.rateLimitStore, {
    scope,
    clientKey: clientRateKey(clientIp, options.throttleIpv6Prefix),
    rate: scope === 'login' ? options.loginThrottle : options.refreshThrottle,
    now: engine.clock.now(),
    logger: engine.logger,
  });
  return { clientIp, cookies };
}
