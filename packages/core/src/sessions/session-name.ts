import { SessauthError } from '../errors/sessauth-error.js';
import { hasControlOrLoneSurrogate } from '../text/unsafe-text.js';

/** The longest device name, in characters (Unicode code points, as the SQL columns count). */
export const MAX_SESSION_NAME_LENGTH = 64;

// Besides control characters: line and paragraph separators, every format character (bidi
// controls and marks, zero-width characters, the BOM, tag characters: "Trojan Source" and
// invisible names), and code points no Unicode version has assigned.
const INVISIBLE_TRICKS = /[\u2028\u2029\p{Cf}\p{Cn}]/u;
// The one format character a name keeps: the zero-width joiner inside an emoji sequence (👩‍💻).
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\ufe0f?)\u200d(?=\p{Extended_Pictographic})/gu;
// Letters that render as nothing: the Hangul fillers and the braille blank.
const BLANK_LETTERS = /[\u115f\u1160\u3164\uffa0\u2800]/gu;
// What a name needs at least one of once spaces, blank letters and marks are set aside.
const VISIBLE = /[^\p{White_Space}\p{M}]/u;
// More than this many combining marks in a row stack into "Zalgo" text that overflows the list.
const MAX_MARKS_IN_A_ROW = 4;
const MARK_RUN = new RegExp(`\\p{M}{${MAX_MARKS_IN_A_ROW + 1}}`, 'u');

/**
 * The `name` of a `PATCH {prefix}/sessions/{id}/` body, trimmed: a string of 1..64 characters
 * with a visible character, and no control or format character, line separator, unassigned
 * code point, lone surrogate, or run of more than four combining marks. Anything else
 * (missing, not a string, blank or invisible, too long) is 400 `invalid_request`.
 */
export function sessionNameOf(body: Record<string, unknown>): string {
  const { name } = body;
  if (typeof name !== 'string') throw new SessauthError('invalid_request');
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (
    length < 1 ||
    length > MAX_SESSION_NAME_LENGTH ||
    hasControlOrLoneSurrogate(trimmed) ||
    INVISIBLE_TRICKS.test(trimmed.replace(EMOJI_JOINER, '')) ||
    MARK_RUN.test(trimmed) ||
    !VISIBLE.test(trimmed.replace(BLANK_LETTERS, ''))
  ) {
    throw new SessauthError('invalid_request');
  }
  return trimmed;
}
