import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonContentType } from '../../../src/http/content-type.js';
import { parseCookieHeader } from '../../../src/http/cookies.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { describeThrow, ensure, timedParserProperty } from '../kit/timed-parser-property.js';
import { contentTypeHeader, cookieHeader, wellFormedCookiePairs } from './header-arbitraries.js';

/** 10^5 generated inputs per parser, in CI too. */
const RUNS = { full: 100_000 };

/** RFC 9110 `token` characters, checked one by one. */
function isToken(text: string): boolean {
  return text !== '' && [...text].every((c) => /^[!#$%&'*+.^_`|~0-9a-z-]$/.test(c));
}

/**
 * The 415 gate as the contract words it: exactly one header whose media type (the part
 * before any `;`, trimmed, any case) is `application/json` or `application/<token>+json`.
 */
function contractAcceptsJson(values: readonly string[] | undefined): boolean {
  if (values === undefined || values.length !== 1) return false;
  const mediaType = values[0]!.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return true;
  if (!mediaType.startsWith('application/') || !mediaType.endsWith('+json')) return false;
  return isToken(mediaType.slice('application/'.length, -'+json'.length));
}

describe('Content-Type gate (isJsonContentType), generated inputs', () => {
  it(
    'never throws, decides as the contract says, refuses duplicates, ignores parameters, and stays fast',
    () => {
      fc.assert(
        timedParserProperty(contentTypeHeader, isJsonContentType, (values, outcome) => {
          if (!outcome.ok) throw new Error(`isJsonContentType threw ${describeThrow(outcome.error)}`);
          const label = () => JSON.stringify(values);
          ensure(outcome.value === contractAcceptsJson(values), () => `answered ${outcome.value} for ${label()}`);
          if (values?.length === 1) {
            ensure(!isJsonContentType([values[0]!, values[0]!]), () => `accepted a duplicated ${label()}`);
            ensure(isJsonContentType([`${values[0]!}; charset=utf-8`]) === outcome.value, () => `a parameter changed the answer for ${label()}`);
          }
        }),
        fuzzParameters('isJsonContentType', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});

describe('Cookie header parsing (parseCookieHeader), generated inputs', () => {
  it(
    'never throws, yields only non-empty trimmed names without = or ;, and stays fast',
    () => {
      fc.assert(
        timedParserProperty(cookieHeader, parseCookieHeader, (values, outcome) => {
          if (!outcome.ok) throw new Error(`parseCookieHeader threw ${describeThrow(outcome.error)}`);
          const pairsSent = (values ?? []).reduce((count, line) => count + line.split(';').length, 0);
          let pairsParsed = 0;
          for (const [name, list] of outcome.value) {
            ensure(
              name !== '' && name === name.trim() && !/[=;]/.test(name),
              () => `bad name ${JSON.stringify(name)} from ${JSON.stringify(values)}`,
            );
            ensure(list.length > 0, () => `no values for ${JSON.stringify(name)}`);
            pairsParsed += list.length;
          }
          ensure(pairsParsed <= pairsSent, () => `${pairsParsed} pairs parsed from ${pairsSent} sent`);
        }),
        fuzzParameters('parseCookieHeader', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );

  it(
    'reads back exactly the well-formed pairs it was given, in order, duplicates kept',
    () => {
      fc.assert(
        fc.property(wellFormedCookiePairs, fc.constantFrom('; ', ';'), (pairs, separator) => {
          const expected = new Map<string, string[]>();
          for (const [name, value] of pairs) expected.set(name, [...(expected.get(name) ?? []), value]);
          const quotedAway = (value: string) => (value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
          for (const list of expected.values()) list.forEach((value, i) => (list[i] = quotedAway(value)));
          expect(parseCookieHeader([pairs.map(([name, value]) => `${name}=${value}`).join(separator)])).toEqual(expected);
        }),
        fuzzParameters('parseCookieHeader/round-trip', { full: 10_000 }),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});
