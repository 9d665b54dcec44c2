/**
 * The closed vocabularies of the session's `browser` summary, as JWT Ninja shows
 * them to its users. A client may switch on these words (for an icon, say), so no
 * other word ever appears: a browser or system outside them is left out.
 */
export type BrowserFamily = 'Edge' | 'Opera' | 'Samsung Internet' | 'Firefox' | 'Chrome' | 'Safari';
export type OsFamily = 'Windows' | 'iOS' | 'iPadOS' | 'macOS' | 'Android' | 'ChromeOS' | 'Linux';

/** What ua-parser-js 1.x found, the fields the mapping reads. */
export interface ParsedAgent {
  readonly browserName: string | undefined;
  readonly engineName: string | undefined;
  readonly osName: string | undefined;
  readonly deviceModel: string | undefined;
}

const APPLE_SYSTEMS: ReadonlySet<OsFamily> = new Set(['iOS', 'iPadOS', 'macOS']);

// ua-parser-js names (lower-cased) of each family's own builds. Chrome, Firefox,
// Edge and Opera on iOS are the brand's app on Apple's engine: named by the brand.
const BROWSER_NAMES: ReadonlyMap<string, BrowserFamily> = new Map([
  ['edge', 'Edge'],
  ['samsung internet', 'Samsung Internet'],
  ['firefox', 'Firefox'],
  ['mobile firefox', 'Firefox'],
  ['firefox focus', 'Firefox'],
  ['chrome', 'Chrome'],
  ['mobile chrome', 'Chrome'],
  ['chrome headless', 'Chrome'],
  ['chrome webview', 'Chrome'],
  ['chromium', 'Chrome'],
  ['safari', 'Safari'],
  ['mobile safari', 'Safari'],
]);

// Any other browser is named by its engine when that engine is a family's:
// Chromium's (Vivaldi, Yandex, UC, Brave, DuckDuckGo on Android, Huawei's,
// Electron apps, which all send a Chrome/ token) is Chrome, Gecko (LibreWolf,
// Waterfox, KaiOS's browser) is Firefox. WebKit is not: outside Apple's systems a
// "Safari" token is only compatibility noise (a Tizen TV, GNOME Web), and on them
// an unnamed WebKit browser is an in-app view (Facebook, the Google app), not Safari.
const ENGINE_FAMILIES: ReadonlyMap<string, BrowserFamily> = new Map([
  ['blink', 'Chrome'],
  ['arkweb', 'Chrome'],
  ['gecko', 'Firefox'],
]);

// Desktop GNU/Linux distributions ua-parser-js names on their own. Phone, TV and
// watch systems on a Linux kernel (Tizen, webOS, KaiOS, Sailfish, Ubuntu Touch) are
// not "Linux" to the person looking for their device, so they are left out.
const LINUX_NAMES: ReadonlySet<string> = new Set([
  'linux',
  'ubuntu',
  'kubuntu',
  'xubuntu',
  'lubuntu',
  'debian',
  'fedora',
  'suse',
  'opensuse',
  'arch',
  'gentoo',
  'slackware',
  'mandriva',
  'centos',
  'red hat',
  'redhat',
  'pclinuxos',
  'zenwalk',
  'linpus',
  'raspbian',
  'deepin',
  'manjaro',
  'elementary os',
  'sabayon',
  'linspire',
  'mint',
  'mageia',
  'vectorlinux',
]);

/** The browser family, or null when it is none of the six. */
export function browserFamilyOf(agent: ParsedAgent, os: OsFamily | null): BrowserFamily | null {
  const name = agent.browserName?.toLowerCase();
  if (name === undefined) return null;
  if (name.startsWith('opera')) return 'Opera'; // Opera, Opera Mini, Opera GX, Opera Touch...
  const family = BROWSER_NAMES.get(name) ?? ENGINE_FAMILIES.get(agent.engineName?.toLowerCase() ?? '') ?? null;
  // Safari exists only on Apple's systems; elsewhere the name is a guess from a compatibility token.
  if (family === 'Safari' && (os === null || !APPLE_SYSTEMS.has(os))) return null;
  return family;
}

/** The operating-system family, or null when it is none of the seven. */
export function osFamilyOf(agent: ParsedAgent): OsFamily | null {
  const name = agent.osName?.toLowerCase();
  if (name === undefined) return null;
  if (name === 'ios') return agent.deviceModel === 'iPad' ? 'iPadOS' : 'iOS';
  if (name === 'mac os' || name === 'mac os x') return 'macOS';
  if (name.startsWith('windows')) return 'Windows'; // also Windows Phone and Windows Mobile
  // Android-x86 is Android; HarmonyOS 2-4 is Huawei's Android (AOSP) fork and says "Android"
  // in its User-Agent. OpenHarmony (HarmonyOS NEXT) runs no Android and is left out.
  if (name === 'android' || name === 'android-x86' || name === 'harmonyos') return 'Android';
  if (name === 'chromium os' || name === 'chrome os') return 'ChromeOS';
  if (LINUX_NAMES.has(name)) return 'Linux';
  return null;
}
