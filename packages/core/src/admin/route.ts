import type { AdminCapability, Engine } from '../endpoints/engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { adminErrorResponse, type AdminErrorContext } from './error-page.js';
import { adminListingRoute } from './listing-route.js';
import { wantsJson } from './query.js';
import { adminSignInFormRoute, adminSignInRoute } from './sign-in.js';
import { adminSignOutRoute } from './sign-out.js';

/** True for the admin prefix itself and every path below it. */
export function isAdminPath(path: string, adminPrefix: string): boolean {
  return path === adminPrefix || path.startsWith(`${adminPrefix}/`);
}

/**
 * Everything under `<adminPrefix>` (trailing slash optional):
 * `GET /` the listing (HTML, or JSON with `?format=json`), `GET|POST /sign-in/`
 * the browser sign-in, `POST /sign-out/`. Anything else there is 404/405. Never
 * throws: every failure becomes a page, or the API's JSON error for JSON callers.
 */
export async function handleAdminRequest<U>(engine: Engine<U>, admin: AdminCapability<U>, request: SessauthRequest): Promise<SessauthResponse> {
  let rest = request.path.slice(engine.options.adminPrefix.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const method = request.method.toUpperCase();
  const json = wantsJson(request.query, headerValues(request.headers, 'accept'));
  const fail = (error: unknown, context: Omit<AdminErrorContext, 'json'>): Promise<SessauthResponse> =>
    adminErrorResponse(engine, request, error, { json, ...context });
  try {
    if (rest === '') {
      if (method !== 'GET') return await fail(new SessauthError('method_not_allowed'), { where: 'other', headers: { allow: 'GET' } });
      return await adminListingRoute(engine, admin, request).catch((error: unknown) => fail(error, { where: 'listing' }));
    }
    if (rest === '/sign-in') {
      if (method === 'GET') return await adminSignInFormRoute(engine, request);
      if (method === 'POST') return await adminSignInRoute(engine, admin, request);
      return await fail(new SessauthError('method_not_allowed'), { where: 'other', headers: { allow: 'GET, POST' } });
    }
    if (rest === '/sign-out') {
      if (method !== 'POST') return await fail(new SessauthError('method_not_allowed'), { where: 'other', headers: { allow: 'POST' } });
      return await adminSignOutRoute(engine, request);
    }
    return await fail(new SessauthError('not_found'), { where: 'other' });
  } catch (error) {
    return fail(error, { where: 'other' });
  }
}
