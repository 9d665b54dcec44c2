import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessauthError } from '../../../src/errors/sessauth-error.js';
import { resolveOptions } from '../../../src/options/resolve-options.js';
import { createTokenService, type TokenKind, type TokenService } from '../../../src/tokens/token-service.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { ManualClock } from '../kit/property-engine.js';
import { describeThrow, ensure, timedAsyncParserProperty } from '../kit/timed-parser-property.js';
import { jwtCases, NOW_SECONDS, TOKEN_SETTINGS, type JwtCase } from './jwt-arbitraries.js';

/**
 * 10^5 tokens under SESSAUTH_FUZZ_RUNS=full; 2 * 10^4 in CI, because each case is a real
 * WebCrypto HMAC verification (about 50 to 150 µs on a busy 2-core machine).
 */
const RUNS = { full: 100_000, ci: 20_000 };
const TYP: Readonly<Record<TokenKind, string>> = { access: 'at+jwt', refresh: 'rt+jwt' };
const LIFETIME: Readonly<Record<TokenKind, number>> = {
  access: TOKEN_SETTINGS.accessTokenExpireSeconds,
  refresh: TOKEN_SETTINGS.refreshTokenExpireSeconds,
};
const DOCUMENTED = new Set(['invalid_token', 'expired_token', 'invalid_token_type']);
const UNSAFE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let tokens: TokenService;
beforeAll(async () => {
  tokens = await createTokenService(resolveOptions(TOKEN_SETTINGS), new ManualClock(NOW_SECONDS * 1000));
});

const safeId = (value: unknown): boolean => typeof value === 'string' && value !== '' && !UNSAFE_TEXT.test(value);

/** Everything the contract demands of a token it accepts (SPEC: tokens, claims, lifetimes). */
function acceptable(c: JwtCase, kind: TokenKind): string | null {
  const h = c.header as Record<string, unknown>;
  const p = c.payload as Record<string, unknown>;
  if (!c.signedRight) return 'a token not signed HS256 with the key';
  if (h.alg !== 'HS256' || h.typ !== TYP[kind]) return `header ${JSON.stringify(h)}`;
  if (p.iss !== TOKEN_SETTINGS.issuer || p.aud !== TOKEN_SETTINGS.audience) return 'iss or aud';
  if (!safeId(p.sub) || !safeId(p.sid) || (kind === 'refresh' && !safeId(p.jti))) return 'sub, sid or jti';
  const { iat, nbf, exp } = p;
  if (![iat, nbf, exp].every((t) => Number.isSafeInteger(t))) return 'a time that is not a safe integer';
  if ((exp as number) <= NOW_SECONDS || (nbf as number) > NOW_SECONDS || (iat as number) > NOW_SECONDS) return 'outside its validity';
  if ((exp as number) - (iat as number) > LIFETIME[kind]) return 'a lifetime above the configured one';
  return null;
}

describe('compact JWT verification, generated tokens', () => {
  it(
    'accepts only what the contract allows, refuses with a documented code, and stays fast',
    async () => {
      const inputs = fc.tuple(jwtCases, fc.constantFrom<TokenKind>('access', 'refresh'));
      const seen = new Map<string, number>();
      await fc.assert(
        timedAsyncParserProperty(
          inputs,
          ([c, kind]) => tokens.verify(c.token, kind),
          ([c, kind], outcome) => {
            const label = () => `${kind} ${c.token.slice(0, 300)} header=${JSON.stringify(c.header)} payload=${JSON.stringify(c.payload)}`;
            const answer = outcome.ok ? 'accepted' : outcome.error instanceof SessauthError ? outcome.error.code : 'other';
            seen.set(answer, (seen.get(answer) ?? 0) + 1);
            if (outcome.ok) {
              const why = acceptable(c, kind);
              ensure(why === null, () => `accepted ${why}: ${label()}`);
              return;
            }
            const error = outcome.error;
            ensure(error instanceof SessauthError && DOCUMENTED.has(error.code), () => `threw ${describeThrow(error)} for ${label()}`);
            ensure(
              error.status === (error.code === 'invalid_token_type' && kind === 'refresh' ? 400 : 401),
              () => `status ${error.status} for ${error.code}`,
            );
            if (error.code !== 'invalid_token') ensure(c.signedRight, () => `${error.code} for a token that is not ours: ${label()}`);
          },
        ),
        fuzzParameters('verifyToken', RUNS),
      );
      // The generator reaches every answer, acceptance included: the property is not vacuous.
      for (const answer of ['accepted', ...DOCUMENTED]) expect(seen.get(answer) ?? 0, answer).toBeGreaterThan(0);
    },
    fuzzTimeoutMs(RUNS),
  );
});
