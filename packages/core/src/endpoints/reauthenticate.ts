import type { BearerEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { readJsonObject } from '../http/read-json-body.js';
import { accessCookies } from '../http/auth-cookies.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { AuthContext } from '../sessions/authenticate.js';
import { stepUpSession } from '../sessions/step-up.js';
import { REMEMBER_CLAIM } from '../tokens/token-service.js';
import { runAuthenticator } from './run-authenticator.js';
import { throttleAccount } from './throttle-request.js';
import { checkTokenEndpointRequest } from './token-endpoint-checks.js';

/**
 * POST /auth/reauthenticate/ `{"password"}`: step-up by password (RFC 9470). The signed-in
 * caller proves who they are again; the session's `auth_time` is raised (amr `['pwd']`, no
 * `acr`) and a fresh access token carrying `auth_time` is answered. No new session, no new
 * refresh token. After the guard, the login's own pre-checks in order (415, CSRF in cookie
 * transports, the per-address login throttle), then 400 for the body, the per-account budget,
 * and 401 `invalid_credentials` for a wrong password. Without an authenticator, a store without
 * `recordStepUp`, or a users port without `usernameOf`: 404 `not_found` before the guard, as if the endpoint did not exist.
 */
export const reauthenticateEndpoint = {
  route: 'reauthenticate',
  method: 'POST',
  path: '/reauthenticate',
  auth: 'bearer',
  // A password step-up needs the store's recordStepUp and the name the user logs in with.
  available: (engine) =>
    engine.authenticator !== null && typeof engine.store.recordStepUp === 'function' && typeof engine.users.usernameOf === 'function',
  handle: ({ engine, request, caller }) => reauthenticate(engine, request, caller),
} as const satisfies BearerEndpoint;

async function reauthenticate<U>(engine: Engine<U>, request: SessauthRequest, caller: AuthContext<U>): Promise<SessauthResponse> {
  const { users } = engine;
  // `available` made sure of both; a store or port swapped since is answered as absent.
  if (engine.authenticator === null || typeof engine.store.recordStepUp !== 'function' || users.usernameOf === undefined) {
    throw new SessauthError('not_found');
  }
  await checkTokenEndpointRequest(engine, request, 'login');
  const { password } = await readJsonObject(request, engine.options.maxBodyBytes);
  if (typeof password !== 'string') throw new SessauthError('invalid_request');
  const username = users.usernameOf(caller.user);
  await throttleAccount(engine, username);
  const checked = await runAuthenticator(engine, { username, password }, request, username);
  if (users.idOf(checked) !== caller.session.userId) throw new SessauthError('invalid_credentials');
  // "remember": false at login rides in the access token (with the cookie on): the new cookie stays a browser-session one.
  const remember = caller.claims[REMEMBER_CLAIM] !== false;
  const accessToken = await stepUpSession(engine, caller.session, { amr: engine.authenticator.amr ?? ['pwd'], acr: null }, remember);
  // A DPoP-bound session's new token is a DPoP token, as login and refresh say (RFC 9449 s5).
  return jsonResponse(
    200,
    (caller.session.dpopJkt ?? null) === null ? { access_token: accessToken } : { access_token: accessToken, token_type: 'DPoP' },
    { setCookies: accessCookies(engine.options, accessToken, remember) },
  );
}
