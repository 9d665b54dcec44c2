import type { AdminCapability, Engine } from '../endpoints/engine.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { adminCredentialOf, requireAdmin } from './access.js';
import { listingResponse } from './listing.js';
import { issueCsrf } from '../http/request-csrf.js';
import { readActivity } from '../sessions/session-activity.js';

/**
 * GET <adminPrefix>/: every session across users, newest first. Admins only; the
 * caller is checked before the query string is even read. Read-only: the only
 * form that posts is the admin's own sign-out, offered to a browser sign-in
 * (a Bearer caller has no cookie to drop).
 */
export async function adminListingRoute<U>(engine: Engine<U>, admin: AdminCapability<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await requireAdmin(engine, admin, request);
  const csrf = adminCredentialOf(request) === 'cookie' ? issueCsrf(engine, request) : null;
  return listingResponse({
    list: admin.list,
    now: engine.clock.now(),
    basePath: engine.options.adminPrefix,
    query: request.query,
    viewerId: session.userId,
    signOutCsrfToken: csrf?.token ?? null,
    // The same histories `auth.listActivity` answers, read per user on the page.
    readActivity: engine.options.sessionActivity ? (userId, sessionIds) => readActivity(engine, userId, sessionIds) : null,
    setCookies: csrf?.setCookies ?? [],
  });
}
