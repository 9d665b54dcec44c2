// The text checks written once. A NUL byte or a lone UTF-16 surrogate cannot be stored by
// every database (PostgreSQL refuses NUL, MySQL and JSON refuse lone surrogates), so input
// holding one is refused (or cleaned) before it reaches a store.

const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const CONTROL = '[\\u0000-\\u001f\\u007f-\\u009f]';

const NUL_OR_LONE_SURROGATE = new RegExp(`\\u0000|${LONE_SURROGATE}`);
const CONTROL_OR_LONE_SURROGATE = new RegExp(`${CONTROL}|${LONE_SURROGATE}`);

/** True when `text` holds a NUL or a lone surrogate: refuse it as an id, a claim or a username. */
export function hasUnstorableChar(text: string): boolean {
  return NUL_OR_LONE_SURROGATE.test(text);
}

/** True when `text` holds a control character or a lone surrogate: refuse it as display text. */
export function hasControlOrLoneSurrogate(text: string): boolean {
  return CONTROL_OR_LONE_SURROGATE.test(text);
}

/** Control characters and lone surrogates replaced by a space (User-Agent storage). */
export function withoutControlOrLoneSurrogates(text: string): string {
  return text.replace(new RegExp(`(?:${CONTROL}|${LONE_SURROGATE})+`, 'g'), ' ');
}
