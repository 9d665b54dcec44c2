import type { AdminCapability, Engine } from '../endpoints/engine.js';
import { emitLogin } from '../sessions/emit-session-events.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clientIpOf, isSecureRequest } from '../http/client-identity.js';
import { joinedHeader } from '../http/request-headers.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { runAuthenticator } from '../endpoints/run-authenticator.js';
import { throttleAccount, throttleClient } from '../endpoints/throttle-request.js';
import { createSession } from '../sessions/create-session.js';
import { adminCookie } from './cookie.js';
import { adminErrorResponse } from './error-page.js';
import { assertAdminCsrf, readFormFields } from './form.js';
import { adminHtmlResponse, seeOther } from './html/layout.js';
import { issueCsrf } from '../http/request-csrf.js';
import { signInPageHtml } from './html/sign-in-page.js';

/** GET <adminPrefix>/sign-in/: the form (and the CSRF cookie it needs). */
export function adminSignInFormRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const csrf = issueCsrf(engine, request);
  const html = signInPageHtml({ adminPrefix: engine.options.adminPrefix, csrfToken: csrf.token });
  return adminHtmlResponse(200, html, csrf.setCookies);
}

/**
 * POST <adminPrefix>/sign-in/ (form-encoded `username`, `password` and the CSRF
 * field): the browser way in to the listing. 415 form content type, 403 CSRF, 429
 * the login throttle (the same budget as `POST /auth/login/`), then the host's
 * authenticator and `isAdmin`; a user who is not an admin gets 403 and no session.
 * An admin gets a normal session (visible in the listing and in their own
 * `GET /auth/sessions/`) whose access token goes into the admin cookie; its
 * refresh token is never handed out, so the browser signs in again when the
 * access token ends. The CSRF secret is kept, as at login (the API and the admin share the csrftoken cookie). Answers 303 to the listing.
 */
export async function adminSignInRoute<U>(engine: Engine<U>, admin: AdminCapability<U>, request: SessauthRequest): Promise<SessauthResponse> {
  let username: string | undefined;
  try {
    const { options } = engine;
    const fields = await readFormFields(request, options.maxBodyBytes);
    username = fields.get('username');
    assertAdminCsrf(engine, request, fields);
    const clientIp = clientIpOf(engine, request);
    await throttleClient(engine, 'login', clientIp);
    const password = fields.get('password');
    if (username === undefined || password === undefined) throw new SessauthError('invalid_request');
    await throttleAccount(engine, username);
    // Every check of the request before the password: the answer must not tell a right one from a wrong one.
    const userAgent = joinedHeader(request.headers, 'user-agent');
    const user = await runAuthenticator(engine, { username, password }, request, username);
    if (!admin.isAdmin(user)) throw new SessauthError('forbidden');
    const issued = await createSession(engine, user, { clientIp, userAgent });
    emitLogin(engine, issued.session);
    const secure = isSecureRequest(engine, request);
    return seeOther(`${options.adminPrefix}/`, [adminCookie(options, issued.accessToken, secure)]);
  } catch (error) {
    // Keep the typed username (bounded by the form) so only the password is typed again.
    const kept = username !== undefined && username.length <= 254 ? username : undefined;
    return adminErrorResponse(engine, request, error, { json: false, where: 'sign-in', username: kept });
  }
}
