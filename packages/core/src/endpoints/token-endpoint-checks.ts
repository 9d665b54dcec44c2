import type { Engine } from './engine.js';
import { usesRefreshCookie } from '../http/auth-cookies.js';
import { clientIpOf } from '../http/client-identity.js';
import { parseCookieHeader } from '../http/cookies.js';
import { assertJsonContentType } from '../http/read-json-body.js';
import { assertCsrf } from '../http/request-csrf.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { throttleClient } from './throttle-request.js';

export interface CheckedRequest {
  readonly clientIp: string | null;
  readonly cookies: Map<string, string[]>;
}

/**
 * The pre-checks of login and refresh, in the contract's order: 415 content type,
 * 403 CSRF (cookie and both transports), 429 throttle. Each runs only when the one
 * before passed, so a refused request spends no rate budget.
 */
export async function checkTokenEndpointRequest<U>(engine: Engine<U>, request: SessauthRequest, scope: 'login' | 'refresh'): Promise<CheckedRequest> {
  assertJsonContentType(request);
  const cookies = parseCookieHeader(headerValues(request.headers, 'cookie'));
  const { options } = engine;
  if (usesRefreshCookie(options)) assertCsrf(engine, request, headerValues(request.headers, 'x-csrftoken'), cookies);
  const clientIp = clientIpOf(engine, request);
  await throttleClient(engine, scope, clientIp);
  return { clientIp, cookies };
}
