import { jsonResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import type { AdminSessionPage, AdminSessionQuery } from '../store/store-port.js';
import { adminHtmlResponse } from './html/layout.js';
import { listingPageHtml } from './html/listing-page.js';
import { parseAdminQuery, type AdminListingParams } from './query.js';
import { toAdminSessionJson } from './session-view.js';
import { type ActivityReader, readPageActivity } from './page-activity.js';

export interface ListingRequest {
  /** The store's `listSessionsForAdmin`. */
  readonly list: (query: AdminSessionQuery) => Promise<AdminSessionPage>;
  readonly now: Date;
  /** Where the listing is served (its links point below it), without the trailing slash. */
  readonly basePath: string;
  /** The raw query string. */
  readonly query: string | undefined;
  /** Who is looking (shown in the header). Authorisation happened before. */
  readonly viewerId: string;
  /** The masked CSRF token of a sign-out form, or null for no sign-out form. */
  readonly signOutCsrfToken: string | null;
  /** Reads the sessions' activity histories (JWT_SESSION_ACTIVITY); null: the listing shows none. */
  readonly readActivity: ActivityReader | null;
  /** Extra cookies for the HTML page (a fresh CSRF cookie). */
  readonly setCookies?: readonly string[];
}

/**
 * One page of the listing for an already authorised caller: the query string
 * parsed (400 on bad input), one keyset page read (a deep page costs what the
 * first does), then JSON (`format=json`) or the HTML page. Throws SessauthError.
 */
export async function listingResponse(input: ListingRequest): Promise<SessauthResponse> {
  const params = parseAdminQuery(input.query);
  const page = await input.list(storeQuery(params, input.now));
  const activity = input.readActivity === null ? null : await readPageActivity(page.sessions, input.readActivity);
  if (params.format === 'json') {
    return jsonResponse(200, {
      sessions: page.sessions.map((record) => toAdminSessionJson(record, input.now, activity === null ? null : (activity.get(record.id) ?? []))),
      next_cursor: page.nextCursor,
    });
  }
  const html = listingPageHtml({
    basePath: input.basePath,
    viewerId: input.viewerId,
    params,
    page,
    activity,
    now: input.now,
    signOutCsrfToken: input.signOutCsrfToken,
  });
  return adminHtmlResponse(200, html, input.setCookies ?? []);
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
