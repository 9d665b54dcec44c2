import type { Engine } from '../engine.js';
import { csrfCookie, usesRefreshCookie } from '../http/auth-cookies.js';
import { maskCsrfSecret, newCsrfSecret } from '../http/csrf.js';
import { readJsonObject } from '../http/read-json-body.js';
import { singleHeader } from '../http/request-headers.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { createSession } from '../session/create-session.js';
import { checkTokenEndpointRequest } from './token-endpoint-checks.js';
import { tokenResponse } from './token-response.js';

/** POST /auth/login/: pre-checks, the pluggable authenticator, then a new session. */
export async function loginRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { clientIp } = await checkTokenEndpointRequest(engine, request, 'login');
  const body = await readJsonObject(request, engine.options.maxBodyBytes);
  const user = await engine.authenticator(body);
  const userAgent = singleHeader(request.headers, 'user-agent', 'invalid_request');
  const issued = await createSession(engine, user, { clientIp, userAgent });
  if (!usesRefreshCookie(engine.options)) return tokenResponse(engine, issued);
  // The CSRF secret rotates at login (as Django does); the new mask rides along.
  const secret = newCsrfSecret();
  return tokenResponse(engine, issued, {
    setCookies: [csrfCookie(engine.options, secret)],
    body: { csrf_token: maskCsrfSecret(secret) },
  });
}
