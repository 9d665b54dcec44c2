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
 * Every value of a header joined with ", ", as a Fetch runtime hands it over. For
 * headers that are only a hint (User-Agent): a Fetch adapter cannot see a duplicate,
 * so refusing one in the Node adapters alone would make the adapters disagree.
 */
export function joinedHeader(headers: RequestHeaders, name: string): string | undefined {
  return headerValues(headers, name)?.join(', ');
}
