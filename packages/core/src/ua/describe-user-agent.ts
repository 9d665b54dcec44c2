import UAParser from 'ua-parser-js';
import { browserFamilyOf, osFamilyOf } from './ua-families.js';
import { withoutControlOrLoneSurrogates } from '../text/unsafe-text.js';

/** How much of a User-Agent is stored and parsed (ua-parser-js has had ReDoS advisories). */
export const MAX_USER_AGENT_LENGTH = 512;

/**
 * How much of it the summary parses. Real User-Agents name their browser and system
 * within about 250 characters; ua-parser-js's cost grows with the square of its input
 * on some repeats, so a shorter bound keeps the worst case well under a millisecond.
 */
const MAX_PARSED_LENGTH = 320;

/**
 * The User-Agent as stored with the session: control characters (and lone
 * surrogates) replaced by a space, trimmed, cut to 512 characters; null when
 * absent or empty.
 */
export function storedUserAgent(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // Cut first so the clean-up never scans a huge header. Controls are never meaningful in
  // a User-Agent, and a NUL would make some databases reject the row.
  const cleaned = withoutControlOrLoneSurrogates(cutToLength(raw, MAX_USER_AGENT_LENGTH * 2)).trim();
  const stored = cutToLength(cleaned, MAX_USER_AGENT_LENGTH).trimEnd();
  return stored === '' ? null : stored;
}

/**
 * The session's `browser`: "<browser family> on <OS family>" without versions, as
 * JWT Ninja shows it ("Chrome on macOS", "Safari on iOS", "Chrome on iPadOS",
 * "Samsung Internet on Android"); only one of the two when only one is known
 * ("Windows", "Firefox"); null when neither is (curl, python-requests, bots, empty).
 *
 * ua-parser-js 1.x parses; `ua-families.ts` maps its names onto the closed lists
 * (Edge, Opera, Samsung Internet, Firefox, Chrome, Safari; Windows, iOS, iPadOS,
 * macOS, Android, ChromeOS, Linux). Decisions for what lies outside them:
 * - A browser outside the six is named by its engine when that is a family's, as
 *   JWT Ninja's token matching names it: Chromium-based ones (Vivaldi, Yandex, UC,
 *   Huawei's, Electron apps; Brave sends Chrome's own User-Agent) are "Chrome", Gecko
 *   forks are "Firefox". Any other is left out: IE is "Windows", an in-app WebKit view
 *   on iOS is "iOS" (it is not Safari), GNOME Web on Linux is "Linux".
 * - "Safari" only on Apple's systems: elsewhere it is a compatibility token.
 * - Linux distributions (Ubuntu, Fedora, Debian...) are "Linux"; HarmonyOS with its
 *   Android layer is "Android"; systems outside the seven (FreeBSD, Tizen, webOS,
 *   KaiOS, OpenHarmony, game consoles) are left out, so KaiOS's browser is "Firefox".
 * - An iPad whose Safari asks for desktop sites (the default since iPadOS 13) sends a
 *   Mac's User-Agent, byte for byte: the string cannot tell the two apart (only
 *   script in the page can, from touch support), so it reads "Safari on macOS", what
 *   the device claims. Guessing iPadOS instead would mislabel every real Mac.
 */
export function describeUserAgent(ua: string | null): string | null {
  if (ua === null) return null;
  const input = cutToLength(ua, MAX_PARSED_LENGTH);
  if (input.trim() === '') return null;
  const { browser, engine, os, device } = new UAParser(input).getResult();
  const agent = { browserName: browser.name, engineName: engine.name, osName: os.name, deviceModel: device.model };
  const osFamily = osFamilyOf(agent);
  const browserFamily = browserFamilyOf(agent, osFamily);
  if (browserFamily !== null && osFamily !== null) return `${browserFamily} on ${osFamily}`;
  return browserFamily ?? osFamily;
}

/** `text` cut to at most `max` UTF-16 units, never splitting a surrogate pair. */
function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const endsInHighSurrogate = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, endsInHighSurrogate ? max - 1 : max);
}
