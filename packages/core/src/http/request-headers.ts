import { SessauthError } from '../errors/sessauth-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { RequestHeaders } from './sessauth-request.js';

/** Every value of a header (lower-case name), or undefined when absent. */
export function headerValues(headers: RequestHeaders, name: string): readonly string[] | undefined {
  const values = headers.get(name);
  return values && values.length > 0 ? values : undefined;
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

/** Builds a `RequestHeaders` map from Node's flat `rawHeaders` list (name, value, name, value...). */
export function headersFromRawList(raw: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const list = headers.get(name);
    if (list) list.push(raw[i + 1]!);
    else headers.set(name, [raw[i + 1]!]);
  }
  return headers;
}
