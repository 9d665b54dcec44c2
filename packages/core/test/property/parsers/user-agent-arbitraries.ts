import fc from 'fast-check';
import { grammarString } from '../kit/grammar-arbitraries.js';

/** Real User-Agents of the last years, whole: the base the mutations start from. */
const REAL_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/128.0 Mobile/15E148 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.31.0',
];

const fragments = fc.constantFrom(
  'Mozilla/5.0',
  'Windows NT 10.0',
  'Win64',
  'x64',
  'Macintosh',
  'Intel Mac OS X 10_15_7',
  'iPhone',
  'iPad',
  'CPU iPhone OS 17_5 like Mac OS X',
  'CPU OS 17_5 like Mac OS X',
  'Linux',
  'Android 14',
  'SM-S918B',
  'X11',
  'CrOS x86_64 14541.0.0',
  'AppleWebKit/537.36',
  '(KHTML, like Gecko)',
  'Chrome/126.0.0.0',
  'Mobile',
  'Safari/537.36',
  'Version/17.5',
  'Firefox/128.0',
  'Gecko/20100101',
  'rv:128.0',
  'Edg/126.0.2592.87',
  'OPR/111.0.0.0',
  'SamsungBrowser/25.0',
  'CriOS/126.0',
  'FxiOS/128.0',
  'curl/8.5.0',
  'Googlebot/2.1',
  'HeadlessChrome/126.0.0.0',
  'Electron/31.0.0',
  'Vivaldi/6.7',
  'YaBrowser/24.4',
  'MSIE 10.0',
  'Trident/7.0',
  'KAIOS/2.5',
  'Tizen 8.0',
  'HarmonyOS',
  'ArkWeb/4.1',
);

/**
 * A User-Agent header: a real one, a real one with a piece cut or spliced in, or one
 * assembled from real fragments with separators, odd characters and huge repeats
 * (ua-parser-js has had ReDoS advisories: repeated fragments are the classic trigger).
 */
export const userAgentValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...REAL_AGENTS) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...REAL_AGENTS),
        fc.nat(),
        fc.nat(),
        grammarString({ tokens: fragments, separators: [' ', '; ', '/', '(', ')'], maxPieces: 4 }),
      )
      .map(([agent, from, to, splice]) => {
        const a = from % (agent.length + 1);
        const b = a + (to % (agent.length - a + 1));
        return `${agent.slice(0, a)}${splice}${agent.slice(b)}`;
      }),
  },
  { weight: 3, arbitrary: grammarString({ tokens: fragments, separators: [' ', '; ', '/', '(', ')', ', ', '_', '.'], maxPieces: 16 }) },
);
