import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { grammarString, oddChar } from '../kit/grammar-arbitraries.js';

/** The settings the token properties verify under. */
export const TOKEN_SETTINGS = {
  secretKey: 'a-token-fuzz-secret-that-is-long-enough-for-hs256',
  issuer: 'https://issuer.fuzz.test',
  audience: 'sessauth-fuzz',
  accessTokenExpireSeconds: 300,
  refreshTokenExpireSeconds: 3600,
  sessionExpireSeconds: 3600,
} as const;
export const NOW_SECONDS = 1_924_992_000; // 2031-01-01T00:00:00Z

/** What a generated compact JWS was built from, so a property can judge the verifier's answer. */
export interface JwtCase {
  readonly token: string;
  readonly header: unknown;
  readonly payload: unknown;
  /** HS256 over the exact signing input with the right key. */
  readonly signedRight: boolean;
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const hmac = (key: string, input: string): string => createHmac('sha256', key).update(input).digest('base64url');

const odd = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.constant([]), fc.constant({}), oddChar);
const text = (...common: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...common) },
    { weight: 1, arbitrary: odd },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

type Claims = Record<string, unknown>;
type Mutation = (header: Claims, payload: Claims) => void;

/** Seconds around "now": mostly plausible times, sometimes absurd or of the wrong type. */
const time = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: NOW_SECONDS - 4000, max: NOW_SECONDS + 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e300, -1, 0, 1.5 + NOW_SECONDS, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, NOW_SECONDS + 315_360_000) },
  { weight: 1, arbitrary: odd },
);

/** One change to an otherwise valid token: a field set to an odd value, or removed. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom('alg', 'typ'), text('none', 'HS384', 'RS256', 'hs256', '', 'AT+JWT', 'application/at+jwt', 'JWT', 'rt+jwt', 'at+jwt')).map(
    ([name, value]): Mutation =>
      (h) =>
        void (h[name] = value),
  ),
  fc.tuple(fc.constantFrom('crit', 'b64', 'kid', 'jku'), fc.oneof(fc.constant(['exp']), fc.constant(false), odd)).map(
    ([name, value]): Mutation =>
      (h) =>
        void (h[name] = value),
  ),
  fc
    .tuple(fc.constantFrom('iss', 'aud', 'sub', 'sid', 'jti'), text('', 'a\u0000b', 'a\ud800', 'https://evil.test', 'other', TOKEN_SETTINGS.audience))
    .map(
      ([name, value]): Mutation =>
        (_, p) =>
          void (p[name] = name === 'aud' && value === TOKEN_SETTINGS.audience ? [value] : value),
    ),
  fc.tuple(fc.constantFrom('iat', 'nbf', 'exp'), time).map(
    ([name, value]): Mutation =>
      (_, p) =>
        void (p[name] = value),
  ),
  fc.constantFrom('alg', 'typ').map(
    (name): Mutation =>
      (h) =>
        void delete h[name],
  ),
  fc.constantFrom('iss', 'aud', 'sub', 'sid', 'jti', 'iat', 'nbf', 'exp').map(
    (name): Mutation =>
      (_, p) =>
        void delete p[name],
  ),
  fc.tuple(fc.constantFrom('__proto__', 'constructor', 'typ', 'scope'), odd).map(
    ([name, value]): Mutation =>
      (_, p) =>
        void Object.defineProperty(p, name, { value, enumerable: true, configurable: true, writable: true }),
  ),
);

/** A token of one kind that would verify, before its mutations: issued `age` seconds ago, living `life`. */
const validBase = fc
  .record({
    kind: fc.constantFrom('access', 'refresh'),
    age: fc.integer({ min: 0, max: 4000 }),
    life: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 3600 }), fc.integer({ min: 3590, max: 3610 })),
  })
  .map(({ kind, age, life }) => {
    const iat = NOW_SECONDS - age;
    const header: Claims = { alg: 'HS256', typ: kind === 'access' ? 'at+jwt' : 'rt+jwt' };
    const payload: Claims = {
      iss: TOKEN_SETTINGS.issuer,
      aud: TOKEN_SETTINGS.audience,
      sub: 'user-1',
      sid: 'session-1',
      jti: 'jti-1',
      iat,
      nbf: iat,
      exp: iat + life,
    };
    return { header, payload };
  });

const signature = fc.constantFrom('right', 'right', 'right', 'right', 'right', 'wrong-key', 'empty', 'garbage');

/** Valid tokens with zero to two mutations, signed with the right key most of the time. */
const structuredJwt: fc.Arbitrary<JwtCase> = fc
  .tuple(validBase, fc.array(mutation, { maxLength: 2 }), signature, fc.constantFrom('json', 'json', 'json', 'json', 'not-json'))
  .map(([base, mutations, how, encoding]) => {
    const h: Claims = { ...base.header };
    const p: Claims = { ...base.payload };
    for (const mutate of mutations) mutate(h, p);
    const headerPart = base64url(JSON.stringify(h));
    const payloadPart = base64url(encoding === 'json' ? JSON.stringify(p) : JSON.stringify(p).slice(1));
    const input = `${headerPart}.${payloadPart}`;
    const sig =
      how === 'right'
        ? hmac(TOKEN_SETTINGS.secretKey, input)
        : how === 'wrong-key'
          ? hmac('another-secret-another-secret-another!', input)
          : how === 'empty'
            ? ''
            : 'AAAA';
    return { token: `${input}.${sig}`, header: h, payload: encoding === 'json' ? p : undefined, signedRight: how === 'right' && encoding === 'json' };
  });

const segment = fc.oneof(
  fc.base64String({ maxLength: 40 }).map((b) => b.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.constantFrom('eyJ', 'eyJhbGciOiJub25lIn0', 'e30'),
);

/** Junk in the shape of a compact JWS: segments, dots, padding, odd characters, huge repeats. */
const junkJwt: fc.Arbitrary<JwtCase> = grammarString({ tokens: segment, separators: ['.', '..', '=', ' ', '+', '/'] }).map((token) => ({
  token,
  header: undefined,
  payload: undefined,
  signedRight: false,
}));

export const jwtCases: fc.Arbitrary<JwtCase> = fc.oneof({ weight: 4, arbitrary: structuredJwt }, { weight: 1, arbitrary: junkJwt });
