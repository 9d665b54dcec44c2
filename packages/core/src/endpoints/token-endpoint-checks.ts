import type { Engine } from './engine.js';
import { usesRefreshCookie } from '../http/auth-cookies.js';
import { clientIpOf } from '../http/client-identity.js';
import { parseCookieHeader } from '../http/cookies.js';
import { assertJsonContentType } from '../http/read-json-body.js';
import { assertCsrf } from '../http/request-csrf.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import type { ThrottleInput } from '../rate-limit/throttle.js';
import { throttleClient } from './throttle-request.js';

export interface CheckedRequest {
  readonly clientIp: string | null;
  readonly cookies: Map<string, string[]>;
}

const noBudgets = (): Promise<readonly ThrottleInput[]> => Promise.resolve([]);

/**
 * The pre-checks of login and refresh, in the contract's order: 415 content type,
 * 403 CSRF (cookie and both transports), 429 throttle. Each runs only when the one
 * before passed, so a refused request spends no rate budget. `laterBudgets`, asked
 * once 415 and 403 passed, are counted after the address's, in the same round trip.
 */
export async function checkTokenEndpointRequest<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  scope: 'login' | 'refresh',
  laterBudgets: () => Promise<readonly ThrottleInput[]> = noBudgets,
): Promise<CheckedRequest> {
  assertJsonContentType(request);
  const cookies = parseCookieHeader(headerValues(request.headers, 'cookie'));
  const { options } = engine;
  if (usesRefreshCookie(options)) assertCsrf(engine, request, headerValues(request.headers, 'x-csrftoken'), cookies);
  const clientIp = clientIpOf(engine, request);
  await throttleClient(engine, scope, clientIp, await laterBudgets());
  return { clientIp, cookies };
}
