import type { Engine } from '../engine.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { AdminSessionQuery } from '../store/store-port.js';
import { adminCredentialOf, requireAdmin } from './admin-access.js';
import { adminHtmlResponse } from './admin-layout-html.js';
import { listingPageHtml } from './admin-page-html.js';
import { pageCsrf } from './admin-page-csrf.js';
import { parseAdminQuery, type AdminListingParams } from './admin-query.js';
import { toAdminSessionJson } from './admin-session-view.js';

/**
 * GET <adminPrefix>/: every session across users, newest first, one keyset page
 * per request (a deep page costs what the first does). Admins only; the caller is
 * checked before the query string is even read. Read-only: the only form that
 * posts is the admin's own sign-out.
 */
export async function adminListingRoute<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  const { session } = await requireAdmin(engine, request);
  const params = parseAdminQuery(request.query);
  const now = engine.clock.now();
  const page = await engine.store.listSessionsForAdmin(storeQuery(params, now));
  if (params.format === 'json') {
    return jsonResponse(200, {
      sessions: page.sessions.map((record) => toAdminSessionJson(record, now)),
      next_cursor: page.nextCursor,
    });
  }
  // Sign-out is offered only to a browser sign-in: a Bearer caller has no cookie to drop.
  const csrf = adminCredentialOf(request) === 'cookie' ? pageCsrf(engine, request) : null;
  const html = listingPageHtml({
    adminPrefix: engine.options.adminPrefix,
    viewerId: session.userId,
    params,
    page,
    now,
    signOutCsrfToken: csrf?.token ?? null,
  });
  return adminHtmlResponse(200, html, csrf?.setCookies ?? []);
}

function storeQuery(params: AdminListingParams, now: Date): AdminSessionQuery {
  return {
    now,
    limit: params.limit,
    ...(params.userId === undefined ? {} : { userId: params.userId }),
    ...(params.status === undefined ? {} : { status: params.status }),
    ...(params.after === undefined ? {} : { after: params.after }),
  };
}
