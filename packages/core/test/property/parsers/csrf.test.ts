import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkCsrf, csrfTokensMatch, unmaskCsrfToken, type CsrfCheckInput } from '../../../src/http/csrf.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { grammarString, headerValues } from '../kit/grammar-arbitraries.js';
import { describeThrow, ensure, timedParserProperty } from '../kit/timed-parser-property.js';

/** 10^5 generated inputs per parser, in CI too. */
const RUNS = { full: 100_000 };
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Django's masking, written out here as the reference: cipher[i] = secret[i] shifted by mask[i]. */
function referenceMask(secret: string, mask: string): string {
  let cipher = '';
  for (let i = 0; i < 32; i++) cipher += CHARS[(CHARS.indexOf(secret[i]!) + CHARS.indexOf(mask[i]!)) % CHARS.length];
  return mask + cipher;
}

// Built from single characters: several times cheaper to generate than `stringMatching`.
const secret = fc.string({ unit: fc.constantFrom(...CHARS), minLength: 32, maxLength: 32 });
const masked = fc.tuple(secret, secret).map(([s, mask]) => referenceMask(s, mask));
const tokenPieces = fc.oneof(secret, masked, fc.string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength: 40 }));

/** A token from the header or the cookie: well-formed, one character off, cut, padded, or junk. */
const csrfToken: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: secret },
  { weight: 3, arbitrary: masked },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(secret, masked), fc.nat(), fc.constantFrom('a', 'Z', '0', '-', '_', '=', ' ', '\u0000', '\u00e9', '\ud800', '%'))
      .map(([token, at, char]) => `${token.slice(0, at % token.length)}${char}${token.slice((at % token.length) + 1)}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(secret, masked), fc.nat(70)).map(([token, length]) => token.slice(0, length)) },
  { weight: 1, arbitrary: fc.oneof(secret, masked).map((token) => ` ${token}`) },
  { weight: 2, arbitrary: grammarString({ tokens: tokenPieces, separators: [' ', ',', ';', '=', '%'] }) },
);

describe('CSRF token unmasking (unmaskCsrfToken), generated inputs', () => {
  it(
    'never throws, answers a 32-character secret or null, inverts the reference mask, and stays fast',
    () => {
      const inputs = fc.oneof(
        csrfToken,
        fc.tuple(secret, secret).map(([s, mask]) => ({ s, token: referenceMask(s, mask) })),
      );
      fc.assert(
        timedParserProperty(
          inputs,
          (input) => unmaskCsrfToken(typeof input === 'string' ? input : input.token),
          (input, outcome) => {
            if (!outcome.ok) throw new Error(`unmaskCsrfToken threw ${describeThrow(outcome.error)}`);
            const token = typeof input === 'string' ? input : input.token;
            const result = outcome.value;
            ensure(result === null || /^[A-Za-z0-9]{32}$/.test(result), () => `unmasked ${JSON.stringify(token)} into ${JSON.stringify(result)}`);
            const wellFormed = /^[A-Za-z0-9]+$/.test(token) && (token.length === 32 || token.length === 64);
            ensure((result !== null) === wellFormed, () => `decision for ${JSON.stringify(token)} was ${JSON.stringify(result)}`);
            if (token.length === 32 && wellFormed) ensure(result === token, () => `an unmasked secret must come back as itself: ${token}`);
            if (typeof input !== 'string') ensure(result === input.s, () => `${token} should unmask to ${input.s}, got ${result}`);
          },
        ),
        fuzzParameters('unmaskCsrfToken', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});

const origins = fc.oneof(
  fc.constantFrom(
    'http://app.test',
    'https://app.test',
    'http://app.test:3000',
    'https://trusted.test',
    'http://evil.test',
    'null',
    'https://app.test/',
    'https://app.test/path',
  ),
  grammarString({
    tokens: fc.constantFrom('https', 'http', '://', 'app.test', ':3000', '/', 'evil', '@', '.'),
    separators: [':', '/', '.', '@', ' '],
  }),
);

interface CsrfCase {
  readonly input: CsrfCheckInput;
}

const csrfCases: fc.Arbitrary<CsrfCase> = fc
  .record({
    method: fc.constantFrom('POST', 'post', 'PUT', 'DELETE', 'PATCH', 'GET', 'get', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', ''),
    shared: secret,
    mask: secret,
    headerTokens: headerValues(csrfToken),
    cookieValues: headerValues(csrfToken),
    matching: fc.boolean(),
    origin: headerValues(origins),
    referer: headerValues(origins),
    host: fc.option(fc.constantFrom('app.test', 'app.test:3000', 'APP.test', 'app.test:', '[::1]:3000', 'evil.test', 'app test', ''), {
      nil: undefined,
    }),
    secure: fc.boolean(),
    trustedOrigins: fc.constantFrom([], ['https://trusted.test'], ['not a url']),
  })
  .map((c) => ({
    input: {
      method: c.method,
      // Half the cases carry a matching pair, so the origin and Referer rules are what decides.
      headerTokens: c.matching ? [referenceMask(c.shared, c.mask)] : c.headerTokens,
      cookieValues: c.matching ? [c.shared] : c.cookieValues,
      origin: c.origin,
      referer: c.referer,
      host: c.host,
      secure: c.secure,
      trustedOrigins: c.trustedOrigins,
    },
  }));

/** The origin an allowed request may come from: its own (scheme from `secure`, the Host) or a trusted one. */
function allowedOrigin(input: CsrfCheckInput, candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  const own = input.host === undefined ? [] : [`${input.secure ? 'https' : 'http'}://${input.host}`];
  return [...own, ...input.trustedOrigins].some((origin) => {
    try {
      return new URL(origin).origin === url.origin;
    } catch {
      return false;
    }
  });
}

describe('CSRF check (checkCsrf), generated inputs', () => {
  it(
    'never throws, lets safe methods through, and passes an unsafe one only with one matching pair from an allowed origin',
    () => {
      fc.assert(
        timedParserProperty(
          csrfCases,
          (c) => checkCsrf(c.input),
          (c, outcome) => {
            if (!outcome.ok) throw new Error(`checkCsrf threw ${describeThrow(outcome.error)}`);
            const { input } = c;
            const label = () => JSON.stringify(input);
            if (SAFE.has(input.method.toUpperCase())) return ensure(outcome.value, () => `a safe method was refused: ${label()}`);
            if (!outcome.value) return;
            const header = input.headerTokens;
            const cookie = input.cookieValues;
            ensure(header?.length === 1 && cookie?.length === 1, () => `passed without exactly one token and one cookie: ${label()}`);
            ensure(csrfTokensMatch(header[0]!, cookie[0]!), () => `passed with tokens that do not match: ${label()}`);
            if (input.origin !== undefined && input.origin.length > 0) {
              ensure(input.origin.length === 1 && allowedOrigin(input, input.origin[0]!), () => `passed from a foreign Origin: ${label()}`);
            } else if (input.secure) {
              const referer = input.referer;
              ensure(
                referer?.length === 1 && referer[0]!.startsWith('https:') && allowedOrigin(input, referer[0]!),
                () => `HTTPS passed without a same-origin Referer: ${label()}`,
              );
            }
          },
        ),
        fuzzParameters('checkCsrf', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );

  it(
    'matches a header token to a cookie exactly when both carry the same secret',
    () => {
      fc.assert(
        timedParserProperty(
          fc.tuple(csrfToken, csrfToken),
          ([header, cookie]) => csrfTokensMatch(header, cookie),
          ([header, cookie], outcome) => {
            if (!outcome.ok) throw new Error(`csrfTokensMatch threw ${describeThrow(outcome.error)}`);
            const a = unmaskCsrfToken(header);
            const b = unmaskCsrfToken(cookie);
            ensure(outcome.value === (a !== null && a === b), () => `answered ${outcome.value} for ${JSON.stringify([header, cookie])}`);
          },
        ),
        fuzzParameters('csrfTokensMatch', { full: 10_000 }),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});
