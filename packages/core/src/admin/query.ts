import { SessauthError } from '../errors/sessauth-error.js';
import { decodeAdminCursor } from '../store/admin-cursor.js';
import { hasControlOrLoneSurrogate } from '../text/unsafe-text.js';

/** What the listing's query string asks for. */
export interface AdminListingParams {
  readonly userId: string | undefined;
  readonly status: 'active' | 'revoked' | undefined;
  readonly limit: number;
  /** The opaque keyset cursor of the page to show (absent: the first page). */
  readonly after: string | undefined;
  readonly format: 'html' | 'json';
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const MAX_QUERY_LENGTH = 2048;
const MAX_USER_ID_LENGTH = 256;
const KNOWN = new Set(['user', 'status', 'limit', 'after', 'format']);
const PAGE_SIZE = /^[1-9]\d{0,3}$/;
// Control characters and lone surrogates can be no user id we stored.

/**
 * Parses `?user=&status=&limit=&after=&format=`. An empty value means "not set"
 * (what a GET form sends for a blank field); unknown parameters are ignored.
 * Anything malformed (a repeated parameter, an unknown status, a page size outside
 * 1..200, a cursor we did not issue, an over-long query) is 400 `invalid_request`.
 */
export function parseAdminQuery(query: string | undefined): AdminListingParams {
  if (query !== undefined && query.length > MAX_QUERY_LENGTH) throw invalid();
  const params = new URLSearchParams(query ?? '');
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    if (!KNOWN.has(name)) continue;
    if (seen.has(name)) throw invalid();
    seen.set(name, value);
  }
  const blankToUndefined = (name: string): string | undefined => {
    const value = seen.get(name);
    return value === undefined || value === '' ? undefined : value;
  };
  const userId = blankToUndefined('user');
  if (userId !== undefined && (userId.length > MAX_USER_ID_LENGTH || hasControlOrLoneSurrogate(userId))) throw invalid();
  const status = blankToUndefined('status');
  if (status !== undefined && status !== 'active' && status !== 'revoked' && status !== 'all') throw invalid();
  const limitText = blankToUndefined('limit');
  const limit = limitText === undefined ? DEFAULT_PAGE_SIZE : Number(limitText);
  if (limitText !== undefined && (!PAGE_SIZE.test(limitText) || limit > MAX_PAGE_SIZE)) throw invalid();
  const after = blankToUndefined('after');
  if (after !== undefined && decodeAdminCursor(after) === null) throw invalid();
  const format = blankToUndefined('format') ?? 'html';
  if (format !== 'html' && format !== 'json') throw invalid();
  return { userId, status: status === 'all' ? undefined : status, limit, after, format };
}

/**
 * True when the caller wants JSON (`format=json`, or an Accept that names JSON but
 * not HTML). Lenient on purpose: it picks the shape of errors, even for a query
 * that `parseAdminQuery` refuses.
 */
export function wantsJson(query: string | undefined, accept: readonly string[] | undefined): boolean {
  if (new URLSearchParams((query ?? '').slice(0, MAX_QUERY_LENGTH)).getAll('format').includes('json')) return true;
  const value = (accept ?? []).join(',').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

/** The query string of a listing link (only the parameters that are set). */
export function listingQueryString(params: Partial<Omit<AdminListingParams, 'format'>>): string {
  const out = new URLSearchParams();
  if (params.userId !== undefined) out.set('user', params.userId);
  if (params.status !== undefined) out.set('status', params.status);
  if (params.limit !== undefined && params.limit !== DEFAULT_PAGE_SIZE) out.set('limit', String(params.limit));
  if (params.after !== undefined) out.set('after', params.after);
  const text = out.toString();
  return text === '' ? '' : `?${text}`;
}

function invalid(): SessauthError {
  return new SessauthError('invalid_request');
}
