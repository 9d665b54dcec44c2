import { SessauthError } from '../errors/sessauth-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { RequestHeaders } from './sessauth-request.js';

/** Every value of a header (lower-case name), or undefined when absent. */
export function headerValues(headers: RequestHeaders, name: string): readonly string[] | undefined {
  const values = headers.get(name);
  return values && values.length > 0 ? values : undefined;
}

/** The one value of a list, or undefined when there is none or more than one (ambiguous). */
export function soleValue(values: readonly string[] | undefined): string | undefined {
  return values !== undefined && values.length === 1 ? values[0] : undefined;
}

/**
 * The single value of a header that must not repeat. A duplicate fails closed with
 * `code`, the same in every adapter, instead of each framework picking first or last.
 */
export function singleHeader(headers: RequestHeaders, name: string, code: ErrorCode): string | undefined {
  const values = headerValues(headers, name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw new SessauthError(code);
  return values[0];
}

/**
 * Every value of a header joined with ", ", as a Fetch runtime hands it over. For
 * headers that are only a hint (User-Agent): a Fetch adapter cannot see a duplicate,
 * so refusing one in the Node adapters alone would make the adapters disagree.
 */
export function joinedHeader(headers: RequestHeaders, name: string): string | undefined {
  return headerValues(headers, name)?.join(', ');
}
