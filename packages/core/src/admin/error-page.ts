import type { Engine } from '../endpoints/engine.js';
import { ERROR_MESSAGE, type ErrorCode } from '../errors/error-codes.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { isSecureRequest } from '../http/client-identity.js';
import { errorToResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { adminCredentialOf } from './access.js';
import { clearAdminCookie } from './cookie.js';
import { adminHtmlResponse } from './html/layout.js';
import { issueCsrf } from '../http/request-csrf.js';
import { messagePageHtml, signInPageHtml } from './html/sign-in-page.js';

export interface AdminErrorContext {
  /** JSON errors (the API's `{"error_code"}`) instead of pages. */
  readonly json: boolean;
  /** Which page failed: a refused sign-in shows the form again with a reason. */
  readonly where: 'listing' | 'sign-in' | 'other';
  readonly username?: string | undefined;
  readonly headers?: Record<string, string>;
}

const TITLES: Partial<Record<ErrorCode, string>> = {
  forbidden: 'Forbidden',
  invalid_request: 'Bad request',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  csrf_failed: 'Form expired',
  service_unavailable: 'Service unavailable',
};

/**
 * The admin's answer to a failure. JSON callers get the contract's error body.
 * A browser gets the sign-in form for a 401 (and for a refused sign-in, with the
 * reason), or a short page otherwise; the status is the same either way.
 */
export async function adminErrorResponse<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  error: unknown,
  context: AdminErrorContext,
): Promise<SessauthResponse> {
  // Logs faults and picks the status (and Retry-After) exactly as the API does.
  const json = errorToResponse(error, engine.logger, context.headers === undefined ? {} : { headers: context.headers });
  if (context.json) return json;
  const code: ErrorCode = error instanceof SessauthError ? error.code : 'internal_error';
  const { adminPrefix } = engine.options;
  const extra: Record<string, string> = {};
  for (const name of ['retry-after', 'allow']) if (json.headers[name] !== undefined) extra[name] = json.headers[name];

  const credential = adminCredentialOf(request);
  const notice = signInNotice(code, context, json.status, extra['retry-after'], credential !== 'none');
  const showForm = json.status === 401 || (context.where === 'sign-in' && notice !== undefined);
  if (showForm) {
    const csrf = issueCsrf(engine, request);
    const cookies = [...csrf.setCookies];
    // A stale or revoked admin cookie is dropped so the browser stops sending it.
    if (json.status === 401 && credential === 'cookie') {
      cookies.push(clearAdminCookie(engine.options, isSecureRequest(engine, request)));
    }
    const html = signInPageHtml({ adminPrefix, csrfToken: csrf.token, notice, username: context.username });
    return adminHtmlResponse(json.status, html, cookies, extra);
  }
  const title = TITLES[code] ?? (json.status >= 500 ? 'Error' : 'Request refused');
  const message = code === 'forbidden' ? 'Your account is not an administrator, so it may not open the session listing.' : ERROR_MESSAGE[code];
  return adminHtmlResponse(json.status, messagePageHtml({ adminPrefix, title, message }), [], extra);
}

/** Why the sign-in form is shown (again), if there is something to say. */
function signInNotice(
  code: ErrorCode,
  context: AdminErrorContext,
  status: number,
  retryAfter: string | undefined,
  presented: boolean,
): string | undefined {
  if (context.where === 'listing') {
    return status === 401 && presented ? 'Your sign-in has expired or was revoked. Please sign in again.' : undefined;
  }
  if (context.where !== 'sign-in') return undefined;
  if (status === 401) return 'Wrong username or password.';
  if (code === 'forbidden') return 'This account is not an administrator.';
  if (code === 'csrf_failed') return 'The form had expired. Please sign in again.';
  if (code === 'rate_limited') return `Too many sign-in attempts. Try again in ${retryAfter ?? 'a few'} seconds.`;
  return undefined;
}
