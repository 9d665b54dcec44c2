import fc from 'fast-check';
import { describe, it } from 'vitest';
import { SettingsError } from '../../../src/errors/sessauth-error.js';
import { parseRate } from '../../../src/options/parse-rate.js';
import { describeUserAgent, MAX_USER_AGENT_LENGTH, storedUserAgent } from '../../../src/ua/describe-user-agent.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { grammarString } from '../kit/grammar-arbitraries.js';
import { describeThrow, ensure, timedParserProperty } from '../kit/timed-parser-property.js';
import { userAgentValue } from './user-agent-arbitraries.js';

/** 10^5 generated inputs per parser, in CI too. */
const RUNS = { full: 100_000 };
/**
 * 10^5 User-Agents under SESSAUTH_FUZZ_RUNS=full; 2.5 * 10^4 in CI: ua-parser-js runs
 * about a hundred regular expressions per input (50 to 500 µs at 512 characters).
 */
const UA_RUNS = { full: 100_000, ci: 25_000 };
const SETTING = 'JWT_LOGIN_THROTTLE_RATE';
const WINDOWS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};

const rateText = grammarString({
  tokens: fc.oneof(
    fc.constantFrom('0', '1', '5', '30', '00', '01', '1000000000', '1000000001', '9999999999', '1e3', '-1', '+5', '0x10', '\u0665', '\uff15'),
    fc.mixedCase(fc.constantFrom(...Object.keys(WINDOWS), 'ms', 'week', 'mins', 'hr', '')),
    fc.nat().map(String),
  ),
  separators: ['/', '//', ' ', '\t', '.', ',', '-'],
  maxPieces: 5,
});
const rateInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: rateText },
  { weight: 1, arbitrary: fc.constantFrom(5, 0, null, undefined, {}, ['5/min'], true) },
);

describe('throttle rate (parseRate), generated inputs', () => {
  it(
    'never throws anything but a SettingsError naming the setting, and answers only sane rates',
    () => {
      fc.assert(
        timedParserProperty(
          rateInput,
          (value) => parseRate(value as string, SETTING),
          (value, outcome) => {
            const label = () => JSON.stringify(value);
            if (!outcome.ok) {
              const error = outcome.error;
              ensure(
                error instanceof SettingsError && error.setting === SETTING && error.message.startsWith(SETTING),
                () => `threw ${describeThrow(error)} for ${label()}`,
              );
              return;
            }
            const rate = outcome.value;
            if (rate === null) return ensure(value === '0', () => `disabled by ${label()}`);
            ensure(Number.isSafeInteger(rate.limit) && rate.limit >= 1 && rate.limit <= 1e9, () => `limit ${rate.limit} from ${label()}`);
            ensure(Object.values(WINDOWS).includes(rate.windowSec), () => `window ${rate.windowSec} from ${label()}`);
          },
        ),
        fuzzParameters('parseRate', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );

  it('reads back every well-formed "<count>/<unit>"', () => {
    const wellFormed = fc.tuple(fc.integer({ min: 1, max: 1e9 }), fc.mixedCase(fc.constantFrom(...Object.keys(WINDOWS))));
    fc.assert(
      fc.property(wellFormed, ([limit, unit]) => {
        const rate = parseRate(`${limit}/${unit}`, SETTING);
        ensure(rate?.limit === limit && rate.windowSec === WINDOWS[unit.toLowerCase()], () => `${limit}/${unit} read as ${JSON.stringify(rate)}`);
      }),
      fuzzParameters('parseRate/round-trip', { full: 10_000 }),
    );
  });
});

const BROWSERS = ['Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chrome', 'Safari'];
const SYSTEMS = ['Windows', 'iOS', 'iPadOS', 'macOS', 'Android', 'ChromeOS', 'Linux'];
const SUMMARIES = new Set([...BROWSERS, ...SYSTEMS, ...BROWSERS.flatMap((b) => SYSTEMS.map((s) => `${b} on ${s}`))]);
const UNSAFE_STORED = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('User-Agent (storedUserAgent, then describeUserAgent), generated inputs', () => {
  it(
    'stores a clean, bounded text, summarises it in the closed vocabulary, never throws, and stays fast',
    () => {
      const login = (raw: string | undefined) => {
        const stored = storedUserAgent(raw);
        return { stored, browser: describeUserAgent(stored) };
      };
      fc.assert(
        timedParserProperty(fc.option(userAgentValue, { nil: undefined }), login, (raw, outcome) => {
          if (!outcome.ok) throw new Error(`threw ${describeThrow(outcome.error)} for ${JSON.stringify(raw)?.slice(0, 300)}`);
          const { stored, browser } = outcome.value;
          const label = () => JSON.stringify(raw)?.slice(0, 300);
          if (stored !== null) {
            ensure(
              stored !== '' && stored.length <= MAX_USER_AGENT_LENGTH && stored === stored.trim(),
              () => `stored ${JSON.stringify(stored)} from ${label()}`,
            );
            ensure(!UNSAFE_STORED.test(stored), () => `stored a control character or lone surrogate from ${label()}`);
          }
          ensure(browser === null || SUMMARIES.has(browser), () => `summary ${JSON.stringify(browser)} is outside the vocabulary, from ${label()}`);
          if (stored === null) ensure(browser === null, () => `a summary without a User-Agent: ${browser}`);
        }),
        fuzzParameters('userAgent', UA_RUNS),
      );
    },
    fuzzTimeoutMs(UA_RUNS),
  );
});
