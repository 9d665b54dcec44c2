import { soleValue } from './request-headers.js';
// application/json or application/<subtype>+json; the subtype is an RFC 9110 token.
const JSON_MEDIA_TYPE = /^application\/(?:json|[!#$%&'*+.^_`|~0-9a-z-]+\+json)$/;

/**
 * True for exactly one `Content-Type` header whose media type is
 * `application/json` or `application/<something>+json` (any case, parameters
 * allowed). A missing or repeated header, or any other type, is false: the
 * caller answers 415 before reading the body.
 */
export function isJsonContentType(values: readonly string[] | undefined): boolean {
  const value = soleValue(values);
  if (value === undefined) return false;
  const semicolon = value.indexOf(';');
  const mediaType = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return JSON_MEDIA_TYPE.test(mediaType);
}
