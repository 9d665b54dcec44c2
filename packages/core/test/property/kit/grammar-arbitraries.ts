import fc from 'fast-check';

/**
 * Building blocks for inputs biased to a grammar: mostly valid-looking pieces and
 * separators, with the characters parsers get wrong (NUL, controls, lone surrogates,
 * look-alike Unicode), truncations and huge repeats mixed in. Random strings alone
 * almost never reach the interesting branches of a parser; these do.
 */

/** One UTF-16 unit from the surrogate range: a lone surrogate is invalid UTF-8 and breaks databases. */
export const loneSurrogate: fc.Arbitrary<string> = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

const controlChar = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((unit) => String.fromCharCode(unit)),
  fc.constantFrom('\u007f', '\u0085', '\u009f'),
);

/** Characters that look like ASCII syntax, or that `trim()` and friends treat specially. */
const lookAlike = fc.constantFrom(
  '\u0000',
  '\ufeff',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u3000',
  '\uff0e',
  '\uff1a',
  '\uff0c',
  '\uff1b',
  '\u0660',
  '\uff10',
  '\u2024',
  '\u0130',
  '\u017f',
  '\u212a',
  '\ud83d\ude00',
);

/** A single odd character (or pair): what separates a robust parser from a lucky one. */
export const oddChar: fc.Arbitrary<string> = fc.oneof(
  loneSurrogate,
  controlChar,
  lookAlike,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);

/**
 * Longest repeat by default: 8 KiB, half of what Node accepts for a whole request head
 * (16 KiB), so every generated header could arrive in a real request. The 1 ms bound is
 * meant for super-linear work; at this size a linear parser is far inside it.
 */
export const MAX_REPEAT_LENGTH = 8192;

/** `piece` repeated up to about `maxLength` characters: exposes super-linear scans and regexes. */
export function hugeRepeat(piece: fc.Arbitrary<string>, maxLength = MAX_REPEAT_LENGTH): fc.Arbitrary<string> {
  return fc
    .tuple(piece, fc.integer({ min: 2, max: maxLength }))
    .map(([text, length]) => (text === '' ? '' : text.repeat(Math.max(2, Math.floor(length / text.length)))));
}

export interface GrammarPieces {
  /** Valid-looking tokens of the grammar. */
  readonly tokens: fc.Arbitrary<string>;
  /** Its separators and delimiters. */
  readonly separators: readonly string[];
  /** Most pieces in one input. @default 12 */
  readonly maxPieces?: number;
  /** Longest huge repeat. @default MAX_REPEAT_LENGTH */
  readonly maxRepeat?: number;
}

/**
 * A concatenation of grammar pieces: tokens and separators most of the time, an odd
 * character or a huge repeat now and then. Sometimes cut at a random point, sometimes
 * replaced by a plain random string, so the whole input space stays reachable.
 */
export function grammarString(pieces: GrammarPieces): fc.Arbitrary<string> {
  const separator = fc.constantFrom(...pieces.separators);
  // A few pieces repeated as a unit (`a=%ZZ;`, `\t,`): per-element costs and
  // backtracking show up on repeated structure, not on one repeated character.
  const shortRun = fc.array(fc.oneof(pieces.tokens, separator, oddChar), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
  const piece = fc.oneof(
    { weight: 10, arbitrary: pieces.tokens },
    { weight: 5, arbitrary: separator },
    { weight: 1, arbitrary: oddChar },
    { weight: 1, arbitrary: hugeRepeat(shortRun, pieces.maxRepeat) },
  );
  const joined = fc.array(piece, { maxLength: pieces.maxPieces ?? 12 }).map((parts) => parts.join(''));
  return fc.oneof(
    { weight: 12, arbitrary: joined },
    { weight: 2, arbitrary: truncated(joined) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: loneSurrogateOrChar(), maxLength: 40 }) },
  );
}

/** The input cut at a random point (a header or token that ended early). */
export function truncated(input: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(input, fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1)));
}

/** One value of a header that may repeat: absent, once (mostly), or on several lines. */
export function headerValues(value: fc.Arbitrary<string>): fc.Arbitrary<string[] | undefined> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 8, arbitrary: value.map((one) => [one]) },
    { weight: 2, arbitrary: fc.array(value, { minLength: 0, maxLength: 3 }) },
  );
}

function loneSurrogateOrChar(): fc.Arbitrary<string> {
  return fc.oneof(loneSurrogate, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }));
}
