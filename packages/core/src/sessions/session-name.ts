import { SessauthError } from '../errors/sessauth-error.js';
import { hasControlOrLoneSurrogate } from '../text/unsafe-text.js';

/** The longest device name, in characters (Unicode code points, as the SQL columns count). */
export const MAX_SESSION_NAME_LENGTH = 64;

// Besides control characters: line and paragraph separators, and the bidirectional controls
// that could make a name display as something else in the list ("Trojan Source").
const INVISIBLE_TRICKS = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * The `name` of a `PATCH {prefix}/sessions/{id}/` body, trimmed: a string of 1..64 characters
 * with no control character, line separator, bidi control or lone surrogate. Anything else
 * (missing, not a string, blank, too long) is 400 `invalid_request`.
 */
export function sessionNameOf(body: Record<string, unknown>): string {
  const { name } = body;
  if (typeof name !== 'string') throw new SessauthError('invalid_request');
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > MAX_SESSION_NAME_LENGTH || hasControlOrLoneSurrogate(trimmed) || INVISIBLE_TRICKS.test(trimmed)) {
    throw new SessauthError('invalid_request');
  }
  return trimmed;
}
