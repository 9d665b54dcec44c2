import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessauthError } from '../../../src/errors/sessauth-error.js';
import type { Sessauth } from '../../../src/engine/sessauth.js';
import { MemorySessionStore } from '../../../src/store/memory-store.js';
import { loginTokens } from '../kit/engine-requests.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { grammarString } from '../kit/grammar-arbitraries.js';
import { createPropertyEngine, ManualClock, type PropertyUser } from '../kit/property-engine.js';
import { describeThrow, ensure, timedAsyncParserProperty } from '../kit/timed-parser-property.js';

/** 10^5 generated headers, in CI too (most are refused before any token verification). */
const RUNS = { full: 100_000 };
/** What the guard may answer besides success (SPEC error table); all are 400 or 401. */
const DOCUMENTED = new Set([
  'invalid_token',
  'invalid_request',
  'expired_token',
  'invalid_token_type',
  'session_not_found',
  'session_expired',
  'invalid_user',
]);

let auth: Sessauth<PropertyUser>;
let access = '';
let refresh = '';
let sessionId = '';

beforeAll(async () => {
  const alice: PropertyUser = { id: 'user-alice', username: 'alice', password: 'alice-pw', stamp: 'stamp-1' };
  auth = await createPropertyEngine({ store: new MemorySessionStore(), clock: new ManualClock(Date.UTC(2031, 0, 1)), users: [alice] });
  ({ access, refresh } = await loginTokens(auth, 'alice', 'alice-pw'));
  sessionId = (await auth.authenticate({ authorization: [`Bearer ${access}`] })).session.id;
});

/** A token with one character replaced: a broken signature, payload or header. */
const tampered = (token: () => string) =>
  fc.tuple(fc.nat(), fc.constantFrom('A', 'b', '_', '-', '.', '=', '+', '/')).map(([at, char]) => {
    const t = token();
    const i = at % t.length;
    return `${t.slice(0, i)}${char}${t.slice(i + 1)}`;
  });

// Tokens come from `beforeAll`, so they are read when a value is generated, not when this is built.
const credential = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null).map(() => access) },
  { weight: 2, arbitrary: fc.constant(null).map(() => refresh) },
  { weight: 3, arbitrary: tampered(() => access) },
  { weight: 1, arbitrary: fc.constantFrom('a.b.c', 'eyJhbGciOiJub25lIn0.e30.', 'x', '') },
);

const schemes = fc.constantFrom('Bearer ', 'Bearer ', 'bearer ', 'BEARER ', 'Bearer  ', 'Bearer\t', 'Basic ', 'Token ', 'Bearer', '');

/** One Authorization value: mostly `<scheme><credential>`, with padding, commas and grammar junk. */
const authorizationValue = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(schemes, credential).map(([scheme, token]) => `${scheme}${token}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(' ', '', '\t'), schemes, credential, fc.constantFrom('', ' ', ',', ', x', '\u0000', '=', '\r'))
      .map(([before, scheme, token, after]) => `${before}${scheme}${token}${after}`),
  },
  { weight: 1, arbitrary: grammarString({ tokens: fc.oneof(schemes, credential), separators: [' ', ',', '.', '='] }) },
);

const authorizationHeader = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 8, arbitrary: authorizationValue.map((value) => [value]) },
  { weight: 2, arbitrary: fc.array(authorizationValue, { maxLength: 3 }) },
);

describe('Authorization through the guard (auth.authenticate), generated headers', () => {
  it(
    'lets exactly one well-formed Bearer header of the live access token through, and refuses the rest with a documented code',
    async () => {
      const seen = new Map<string, number>();
      await fc.assert(
        timedAsyncParserProperty(
          authorizationHeader,
          (values) => auth.authenticate({ authorization: values }),
          (values, outcome) => {
            const label = () => JSON.stringify(values)?.slice(0, 400);
            const answer = outcome.ok ? 'accepted' : outcome.error instanceof SessauthError ? outcome.error.code : 'other';
            seen.set(answer, (seen.get(answer) ?? 0) + 1);
            if (outcome.ok) {
              ensure(values?.length === 1 && values[0]!.startsWith('Bearer '), () => `accepted ${label()}`);
              ensure(outcome.value.session.id === sessionId, () => `accepted ${label()} as another session`);
              return;
            }
            const error = outcome.error;
            ensure(error instanceof SessauthError && DOCUMENTED.has(error.code), () => `threw ${describeThrow(error)} for ${label()}`);
            ensure(error.status === 400 || error.status === 401, () => `status ${error.status} for ${label()}`);
          },
        ),
        fuzzParameters('authenticate', RUNS),
      );
      // Success and the common refusals are all reached: the property is not vacuous.
      for (const answer of ['accepted', 'invalid_token', 'invalid_request', 'invalid_token_type'])
        expect(seen.get(answer) ?? 0, answer).toBeGreaterThan(0);
    },
    fuzzTimeoutMs(RUNS),
  );
});
