import type { Engine } from '../engine.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { adminCredentialOf, requireAdmin } from './admin-access.js';
import { listingResponse } from './admin-listing-response.js';
import { pageCsrf } from './admin-page-csrf.js';

/**
 * GET <adminPrefix>/: every session across users, newest first. Admins only; the
 * caller is checked before the query string is even read. Read-only: the only
 * form that posts is the admin's own sign-out, offered to a browser sign-in
 * (a Bearer caller has no cookie to drop).
 */
export async function adminListingRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await requireAdmin(engine, request);
  const csrf = adminCredentialOf(request) === 'cookie' ? pageCsrf(engine, request) : null;
  return listingResponse({
    store: engine.store,
    now: engine.clock.now(),
    basePath: engine.options.adminPrefix,
    query: request.query,
    viewerId: session.userId,
    signOutCsrfToken: csrf?.token ?? null,
    setCookies: csrf?.setCookies ?? [],
  });
}
