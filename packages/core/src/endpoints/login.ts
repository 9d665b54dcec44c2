import type { PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { emitLogin, emitLoginFailed } from '../sessions/emit-session-events.js';
import { readJsonObject } from '../http/read-json-body.js';
import { joinedHeader } from '../http/request-headers.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { attemptsBeforeSuccess, countFailedLogin } from './failed-login-count.js';
import { runAuthenticator } from './run-authenticator.js';
import { accountBudget } from './throttle-request.js';
import { createSession } from '../sessions/create-session.js';
import { checkTokenEndpointRequest } from './token-endpoint-checks.js';
import { tokenResponse } from './token-response.js';
import { registrationHeaders } from './device-bound-session.js';
import { DpopProofError } from '../errors/dpop-error.js';
import { dpopProofOf, recordDpopProof } from './dpop-request.js';

/** POST /auth/login/: pre-checks, the pluggable authenticator, then a new session. */
export const loginEndpoint = {
  route: 'login',
  method: 'POST',
  path: '/login',
  auth: 'none',
  handle: ({ engine, request }) => login(engine, request),
} as const satisfies PublicEndpoint;

async function login<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  // The per-account budget, beside the per-address one: before the user is looked up, so
  // an unknown username spends and answers exactly as an existing one does. It needs the
  // body, so with it on the body is read once 415 and 403 passed, and every budget goes to
  // the store in one round trip; a malformed body still answers only after the budgets
  // passed, and spends no account budget (there is no account to count).
  let early: Promise<Record<string, unknown>> | null = null;
  const accountBudgets = async () => {
    early = readJsonObject(request, engine.options.maxBodyBytes);
    const body = await early.catch(() => null);
    return body === null || !validRemember(body) ? [] : accountBudget(engine, body.username);
  };
  const { clientIp } = await checkTokenEndpointRequest(
    engine,
    request,
    'login',
    engine.options.loginAccountThrottle === null ? undefined : accountBudgets,
  );
  const body = await (early ?? readJsonObject(request, engine.options.maxBodyBytes));
  // Every check of the request before the password: a refusal after it would tell a
  // caller whether the password was right without leaving a session behind.
  const userAgent = joinedHeader(request.headers, 'user-agent');
  const remember = rememberOf(body);
  // The proof of a DPoP key (JWT_DPOP), checked and recorded before the password too.
  const dpopJkt = await loginBinding(engine, request);
  const user = await runAuthenticator(engine, body, request, body.username).catch(async (error: unknown) => {
    if (error instanceof SessauthError) {
      emitLoginFailed(engine, error.code, body.username, clientIp);
      await countFailedLogin(engine, error, body.username);
    }
    throw error;
  });
  const amr = engine.authenticator?.amr ?? [];
  const failedLogins = await attemptsBeforeSuccess(engine, body.username);
  const issued = await createSession(engine, user, { clientIp, userAgent, remember, amr, failedLogins, dpopJkt });
  emitLogin(engine, issued.session);
  // The CSRF secret does not rotate here: the seed's browser flow sends the masked
  // value from its one `GET /auth/csrf/` on login and on every later refresh.
  // JWT_DEVICE_BOUND_COOKIES: invite the browser to bind this session to a key (DBSC).
  return tokenResponse(engine, issued, { headers: await registrationHeaders(engine, issued.session) });
}

/**
 * The key a login binds its session to (RFC 9449 s5): the thumbprint of a valid, unseen `DPoP`
 * proof for this request; null without one (off, or `allowed` with no proof). `required`
 * refuses a login without a proof.
 */
async function loginBinding<U>(engine: Engine<U>, request: SessauthRequest): Promise<string | null> {
  if (engine.options.dpop === 'off') return null;
  const proof = await dpopProofOf(engine, request);
  if (proof === null) {
    if (engine.options.dpop === 'required') throw new DpopProofError('missing');
    return null;
  }
  await recordDpopProof(engine, proof);
  return proof.jkt;
}

/**
 * `"remember"` of the login body: absent or `true` keeps the full session lifetime and a
 * persistent refresh cookie; `false` asks for a short session with a browser-session cookie.
 * Any other type is 400 `invalid_request`, checked before the password.
 */
function rememberOf(body: Record<string, unknown>): boolean {
  const { remember } = body;
  if (!validRemember(body)) throw new SessauthError('invalid_request');
  return remember !== false;
}

function validRemember(body: Record<string, unknown>): boolean {
  return body.remember === undefined || typeof body.remember === 'boolean';
}
