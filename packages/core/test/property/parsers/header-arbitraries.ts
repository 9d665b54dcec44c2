import fc from 'fast-check';
import { grammarString, headerValues } from '../kit/grammar-arbitraries.js';

const mediaTypeTokens = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/vnd.api+json',
    'application/json-patch+json',
    'application/problem+json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/jsonp',
    'application/+json',
    'application/json+',
    'application',
    'json',
    '+json',
    '*/*',
    'application/*',
  ),
  fc.constantFrom('charset=utf-8', 'charset="utf-8"', 'boundary=x', 'q=0.9'),
  fc.stringMatching(/^[a-z0-9!#$&^_.+-]{1,12}$/),
);

/** One `Content-Type` value: a media type, parameters, case changes, padding and junk. */
export const contentTypeValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.mixedCase(mediaTypeTokens) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', ' ', '\t', '\u00a0'),
        mediaTypeTokens,
        fc.array(fc.tuple(fc.constantFrom(';', '; ', ' ;', ';;'), mediaTypeTokens), { maxLength: 3 }),
      )
      .map(([pad, type, params]) => `${pad}${type}${params.map(([sep, param]) => `${sep}${param}`).join('')}`),
  },
  { weight: 2, arbitrary: grammarString({ tokens: mediaTypeTokens, separators: ['/', ';', ' ', '\t', '=', '"', ',', '+'] }) },
);

export const contentTypeHeader: fc.Arbitrary<string[] | undefined> = headerValues(contentTypeValue);

const cookieNames = fc.oneof(
  fc.constantFrom('csrftoken', 'refresh_token', 'sessauth_admin', '__Host-x', '__Secure-y', 'a', 'A', ''),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,10}$/),
);
const cookieValues = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{8}$/),
  fc.constantFrom('"a.b.c"', '""', '"', '%E0%A4%A', '%ZZ', '%00', '%3B', '%3D', '%F0%9F%98%80', '%ED%A0%80', '%', 'a%2'),
);

/** One `Cookie` header line: pairs, empty pairs, bare names, quotes and percent-escapes. */
export const cookieHeaderValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom('; ', ';', ' ; ', ';;'), cookieNames, fc.constantFrom('=', ' = ', '==', ''), cookieValues), { maxLength: 8 })
      .map((pairs) => pairs.map(([separator, name, eq, value], i) => `${i === 0 ? '' : separator}${name}${eq}${value}`).join('')),
  },
  { weight: 2, arbitrary: grammarString({ tokens: fc.oneof(cookieNames, cookieValues), separators: ['=', ';', '; ', ' ', '"', ',', '\t'] }) },
);

export const cookieHeader: fc.Arbitrary<string[] | undefined> = headerValues(cookieHeaderValue);

/** Well-formed pairs (RFC 6265 token names, cookie-octet values without `%` or quotes) for the round trip. */
export const wellFormedCookiePairs: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.tuple(fc.stringMatching(/^[!#$&'*+.^_`|~0-9A-Za-z-]{1,12}$/), fc.stringMatching(/^[!#$&'()*+\-./0-9:<>?@A-Z[\]^_`a-z{|}~]{0,24}$/)),
  { maxLength: 10 },
);
