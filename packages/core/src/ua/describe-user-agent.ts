import UAParser from 'ua-parser-js';

/** How much of a User-Agent is stored and parsed (ua-parser-js has had ReDoS advisories). */
export const MAX_USER_AGENT_LENGTH = 512;

// C0 controls, DEL and C1 controls: never meaningful in a User-Agent, and a NUL
// would make some databases reject the row.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]+/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The User-Agent as stored with the session: control characters (and lone
 * surrogates) replaced by a space, trimmed, cut to 512 characters; null when
 * absent or empty.
 */
export function storedUserAgent(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // Cut first so the clean-up below never scans a huge header.
  const cleaned = cutToLength(raw, MAX_USER_AGENT_LENGTH * 2)
    .replace(CONTROL_CHARS, ' ')
    .replace(LONE_SURROGATE, ' ')
    .trim();
  const stored = cutToLength(cleaned, MAX_USER_AGENT_LENGTH).trimEnd();
  return stored === '' ? null : stored;
}

/**
 * A best-effort summary "<browser> <major> on <os> <version>", for example
 * "Firefox 128 on Linux" or "Chrome 120 on Windows 10". Null when either the
 * browser or the operating system is not recognised (curl, bots, empty).
 */
export function describeUserAgent(ua: string | null): string | null {
  if (ua === null) return null;
  const input = cutToLength(ua, MAX_USER_AGENT_LENGTH);
  if (input.trim() === '') return null;
  const { browser, os } = new UAParser(input).getResult();
  if (!browser.name || !os.name) return null;
  const browserPart = browser.major ? `${browser.name} ${browser.major}` : browser.name;
  const osPart = os.version ? `${os.name} ${os.version}` : os.name;
  return `${browserPart} on ${osPart}`;
}

/** `text` cut to at most `max` UTF-16 units, never splitting a surrogate pair. */
function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const endsInHighSurrogate = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, endsInHighSurrogate ? max - 1 : max);
}
