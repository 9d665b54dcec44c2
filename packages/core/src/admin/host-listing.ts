import { systemClock, type Clock } from '../time/clock.js';
import { ERROR_MESSAGE } from '../errors/error-codes.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import { errorToResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import { consoleLogger, type Logger } from '../log/logger.js';
import { adminListerOf, type SessionStore } from '../store/store-port.js';
import { adminHtmlResponse } from './html/layout.js';
import { listingResponse } from './listing.js';
import { wantsJson } from './query.js';
import { messagePageHtml } from './html/sign-in-page.js';

export interface AdminListingOptions {
  /** The same store `createSessauth` was given. */
  readonly store: SessionStore;
  /** The path the host serves the listing at, e.g. '/staff/sessions' (page links point below it). */
  readonly basePath: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /**
   * Show each session's activity history and risk-signal badges (the store's `listActivity`;
   * turn it on where `createSessauth` has JWT_SESSION_ACTIVITY). @default false
   */
  readonly activity?: boolean;
}

export interface AdminListingRequest {
  /** The raw query string, without '?'. */
  readonly query?: string;
  /** Who is looking, as the host knows them; shown in the page header. */
  readonly viewer: string;
  /** The request's `Accept` values: a tool asking for JSON gets JSON errors. */
  readonly accept?: readonly string[];
}

const BASE_PATH = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/**
 * The read-only listing without sessauth's own gate, for a host that puts it
 * behind its own admin login: the host authenticates and authorises the request
 * in its route, then calls this and writes the response (HTML, or JSON with
 * `?format=json`; the same page, filters, keyset paging, escaping and CSP as the
 * built-in one, without a sign-out form). Never throws: a bad query is 400, a
 * store fault 503.
 */
export function createAdminListing(options: AdminListingOptions): (request: AdminListingRequest) => Promise<SessauthResponse> {
  const basePath = options.basePath.replace(/\/+$/, '');
  if (!BASE_PATH.test(basePath))
    throw new Error(`createAdminListing: basePath must be a URL path like '/staff/sessions', got ${JSON.stringify(options.basePath)}`);
  const { store } = options;
  if (typeof store.listSessionsForAdmin !== 'function') {
    throw new IntegrationError('createAdminListing: the store has no listSessionsForAdmin (the memory, Kysely and Redis stores have it)');
  }
  const list = adminListerOf(store);
  const listActivity = store.listActivity;
  if (options.activity === true && typeof listActivity !== 'function') {
    throw new IntegrationError('createAdminListing: activity needs a store with listActivity (the Kysely store with { activity: true })');
  }
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  return async (request) => {
    try {
      return await listingResponse({
        list,
        now: clock.now(),
        basePath,
        query: request.query,
        viewerId: request.viewer,
        signOutCsrfToken: null,
        readActivity:
          options.activity === true && listActivity !== undefined
            ? (userId, sessionIds) => listActivity.call(store, { userId, sessionIds, now: clock.now() })
            : null,
      });
    } catch (error) {
      const json = errorToResponse(error, logger);
      if (wantsJson(request.query, request.accept)) return json;
      const code = error instanceof SessauthError ? error.code : 'internal_error';
      const title = json.status === 400 ? 'Bad request' : 'Error';
      return adminHtmlResponse(json.status, messagePageHtml({ adminPrefix: basePath, title, message: ERROR_MESSAGE[code], signInLink: false }));
    }
  };
}
