import { describe, expect, it } from 'vitest';
import { describeUserAgent, storedUserAgent } from '../src/ua/describe-user-agent.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

// Real User-Agent strings sent by browsers released in 2024-2026, and what JWT Ninja's users see.
const SUMMARIES: readonly (readonly [string, string])[] = [
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on macOS'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Windows'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
  ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Android'],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1',
    'Chrome on iOS',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1',
    'Chrome on iPadOS',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.6478.126 Safari/537.36', 'Chrome on Linux'],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [SAFARI_MAC, 'Safari on macOS'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Safari on iOS',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Safari on iPadOS',
  ],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on macOS'],
  [FIREFOX_LINUX, 'Firefox on Linux'],
  ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on Linux'],
  ['Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0', 'Firefox on Linux'],
  ['Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0', 'Firefox on Android'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
    'Firefox on iOS',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Edge on Windows',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
    'Edge on macOS',
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Mobile Safari/537.36 EdgA/128.0.0.0',
    'Edge on Android',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/126.2592.56 Mobile/15E148 Safari/605.1.15',
    'Edge on iOS',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
    'Opera on Windows',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36 OPR/114.0.0.0 (Edition std-2)',
    'Opera on Windows',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; 23127PN0CG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.134 Mobile Safari/537.36 OPR/83.0.4410.78906',
    'Opera on Android',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    'Samsung Internet on Android',
  ],
];

// Browsers and systems outside the families: the decisions written on describeUserAgent.
const OUTSIDE_THE_LISTS: readonly (readonly [string, string, string | null])[] = [
  [
    'an iPad whose Safari presents itself as a Mac (identical bytes)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
    'Safari on macOS',
  ],
  [
    'Vivaldi (Chromium)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36 Vivaldi/6.9.3447.48',
    'Chrome on Windows',
  ],
  [
    'Yandex (Chromium)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
    'Chrome on Windows',
  ],
  [
    'UC Browser (Chromium)',
    'Mozilla/5.0 (Linux; U; Android 13; en-US; 2201117TY Build/TKQ1.221114.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.80 UCBrowser/13.6.8.1318 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [
    'an Electron app (Chromium)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.41.97 Chrome/130.0.6723.118 Electron/33.2.0 Safari/537.36 Sonic Slack_SSB/4.41.97',
    'Chrome on macOS',
  ],
  ['LibreWolf (Gecko)', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 LibreWolf/128.0-2', 'Firefox on Linux'],
  [
    'HarmonyOS with its Android layer',
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/15.0.4.312 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [
    'OpenHarmony (no Android)',
    'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
    'Chrome',
  ],
  ['KaiOS', 'Mozilla/5.0 (Mobile; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.0', 'Firefox'],
  ['FreeBSD', 'Mozilla/5.0 (X11; FreeBSD amd64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox'],
  [
    'a Facebook in-app view on iOS (WebKit, not Safari)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.35.110;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.5]',
    'iOS',
  ],
  [
    'GNOME Web on Linux (WebKit, not Safari)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 Epiphany/46.0',
    'Linux',
  ],
  [
    'a Tizen TV (its Safari token is compatibility noise)',
    'Mozilla/5.0 (SMART-TV; LINUX; Tizen 8.0) AppleWebKit/537.36 (KHTML, like Gecko) 120.0.6099.5/8.0 TV Safari/537.36',
    null,
  ],
  ['Internet Explorer 11', 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko', 'Windows'],
  ['PowerShell (a system, no browser)', 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.22631; en-US) PowerShell/7.4.5', 'Windows'],
];

describe('describeUserAgent', () => {
  it('has a table of at least 20 real User-Agent strings', () => {
    expect(SUMMARIES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(SUMMARIES)('summarises %s as %j', (ua, summary) => {
    expect(describeUserAgent(ua)).toBe(summary);
  });

  it.each(OUTSIDE_THE_LISTS)('%s: %j', (_what, ua, summary) => {
    expect(describeUserAgent(ua)).toBe(summary);
  });

  it('never puts a version in the summary', () => {
    for (const [ua] of [...SUMMARIES, ...OUTSIDE_THE_LISTS.map(([, agent]) => [agent] as const)]) {
      expect(describeUserAgent(ua) ?? '').not.toMatch(/\d/);
    }
  });

  it.each([
    ['curl/8.4.0'],
    ['python-requests/2.32.3'],
    ['Go-http-client/1.1'],
    ['okhttp/4.12.0'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    [''],
    ['   '],
  ])('gives null for %j', (ua) => {
    expect(describeUserAgent(ua)).toBeNull();
  });

  it('gives null for null', () => {
    expect(describeUserAgent(null)).toBeNull();
  });

  it('parses only the first 512 characters', () => {
    // Both tokens sit beyond the cut: nothing is recognised, null.
    const padded = (n: number): string => `Mozilla/5.0 ${'x'.repeat(n)} (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0`;
    expect(describeUserAgent(padded(100))).toBe('Firefox on Linux');
    expect(describeUserAgent(padded(600))).toBeNull();
    expect(describeUserAgent(`${FIREFOX_LINUX} ${'x'.repeat(600)}`)).toBe('Firefox on Linux');
  });
});

describe('storedUserAgent', () => {
  it('keeps a normal header unchanged', () => {
    expect(storedUserAgent(FIREFOX_LINUX)).toBe(FIREFOX_LINUX);
  });

  it('cuts to 512 characters', () => {
    expect(storedUserAgent('a'.repeat(5000))).toBe('a'.repeat(512));
  });

  it('gives null for missing, empty or blank headers', () => {
    expect(storedUserAgent(undefined)).toBeNull();
    expect(storedUserAgent('')).toBeNull();
    expect(storedUserAgent(' \t ')).toBeNull();
  });

  it('replaces control characters and lone surrogates', () => {
    expect(storedUserAgent('agent\u0000/1\tx\u007f\u0085y')).toBe('agent /1 x y');
    expect(storedUserAgent('a\ud800b')).toBe('a b');
  });

  it('never splits a surrogate pair at the cut', () => {
    const stored = storedUserAgent(`${'a'.repeat(511)}😀tail`);
    expect(stored).toBe('a'.repeat(511));
  });
});
