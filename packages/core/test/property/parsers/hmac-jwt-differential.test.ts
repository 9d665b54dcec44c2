import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../../src/options/resolve-options.js';
import { nodeCrypto } from '../../../src/runtime/node-crypto.js';
import { createHmacJwtVerifier, type HmacJwtVerifier } from '../../../src/tokens/hmac-jwt-verifier.js';
import { chooseSignatureVerifier, type SignatureVerifier } from '../../../src/tokens/choose-signature-verifier.js';
import { createKeyRing, hmacKid, verifyWithRing, type KeyRing } from '../../../src/tokens/key-ring.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { jwtCases, NOW_SECONDS, TOKEN_SETTINGS } from './jwt-arbitraries.js';

/** Each case is two real HMAC verifications (ours and jose's) of the same token. */
const RUNS = { full: 100_000, ci: 10_000 };
const PREVIOUS = 'an-earlier-token-fuzz-secret-also-long-enough-for-hs256';
const STRANGER = 'a-secret-this-service-never-held-but-long-enough!!';
// The shape the token service lets through to either verifier.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const currentDate = new Date(NOW_SECONDS * 1000);
const requiredClaims = ['iss', 'aud', 'sub', 'iat', 'nbf', 'exp'];
const { issuer, audience } = TOKEN_SETTINGS;

let ring: KeyRing;
let ours: HmacJwtVerifier;
let kids: { current: string; previous: string };
beforeAll(async () => {
  ring = await createKeyRing(resolveOptions({ ...TOKEN_SETTINGS, previousSecretKeys: [PREVIOUS], securityStampKey: PREVIOUS }));
  ours = createHmacJwtVerifier('HS256', ring.hmacKeys!, nodeCrypto())!;
  kids = { current: await hmacKid(TOKEN_SETTINGS.secretKey), previous: await hmacKid(PREVIOUS) };
});

type Outcome = { ok: true; payload: JWTPayload; header: unknown } | { ok: false; error: string };

const settle = async (run: () => Promise<{ payload: JWTPayload; protectedHeader: unknown }>): Promise<Outcome> => {
  try {
    const { payload, protectedHeader } = await run();
    return { ok: true, payload, header: protectedHeader };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.constructor.name : String(error) };
  }
};

/** A generated token, or the same token re-signed under a chosen `kid` and key (the rotation cases). */
const cases = fc.tuple(
  jwtCases,
  fc.constantFrom('as generated', 'as generated', 'current', 'previous', 'unknown', 'absent', 'not a string'),
  fc.constantFrom(TOKEN_SETTINGS.secretKey, PREVIOUS, STRANGER),
);

function headerOf(token: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(Buffer.from(token.split('.')[0]!, 'base64url')));
  } catch {
    return undefined;
  }
}

const hasCrit = (token: string): boolean => {
  const header = headerOf(token);
  return typeof header === 'object' && header !== null && !Array.isArray(header) && 'crit' in header;
};

function resign(token: string, kid: string, secret: string): string {
  const header = headerOf(token);
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return token;
  const h = header as Record<string, unknown>;
  if (kid === 'current') h.kid = kids.current;
  else if (kid === 'previous') h.kid = kids.previous;
  else if (kid === 'unknown') h.kid = 'no-such-kid';
  else if (kid === 'absent') delete h.kid;
  else h.kid = 7;
  const input = `${Buffer.from(JSON.stringify(h)).toString('base64url')}.${token.split('.')[1] ?? ''}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('the guard HMAC verifier against jose', () => {
  it(
    'decides every generated token exactly as jwtVerify with the same key ring does',
    async () => {
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(cases, async ([c, kid, secret]) => {
          const token = kid === 'as generated' ? c.token : resign(c.token, kid, secret);
          fc.pre(COMPACT_JWS.test(token));
          const mine = await settle(async () => ours(token, { issuer, audience, currentDate, clockTolerance: 0, requiredClaims }));
          const jose = await settle(() =>
            verifyWithRing(token, ring, { algorithms: ['HS256'], issuer, audience, currentDate, clockTolerance: 0, requiredClaims }),
          );
          seen.set(mine.ok ? 'accepted' : mine.error, (seen.get(mine.ok ? 'accepted' : mine.error) ?? 0) + 1);
          // Deliberately stricter in one place: any `crit` header is refused (we never mint one).
          if (hasCrit(token)) expect(mine, token).toEqual({ ok: false, error: 'JOSENotSupported' });
          else expect(mine, token).toEqual(jose);
        }),
        fuzzParameters('hmacJwtDifferential', RUNS),
      );
      // Acceptance under both keys and every refusal class the guard maps are reached: not vacuous.
      for (const answer of [
        'accepted',
        'JWSSignatureVerificationFailed',
        'JWTExpired',
        'JWTClaimValidationFailed',
        'JWKSNoMatchingKey',
        'JWTInvalid',
      ]) {
        expect(seen.get(answer) ?? 0, answer).toBeGreaterThan(0);
      }
    },
    fuzzTimeoutMs(RUNS),
  );
});

describe('the token service on both paths (node:crypto, and jose where node:crypto is absent)', () => {
  let fast: SignatureVerifier;
  let portable: SignatureVerifier;
  beforeAll(() => {
    fast = chooseSignatureVerifier(ring, 'HS256');
    portable = chooseSignatureVerifier(ring, 'HS256', undefined);
  });
  const checks = { algorithm: 'HS256', issuer, audience, currentDate, clockTolerance: 0, requiredClaims };

  it('refuses a crit header jose knows (b64) on both paths, with the same error', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'at+jwt', kid: kids.current, crit: ['b64'], b64: true })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ iss: issuer, aud: audience, sub: 'u', sid: 's', iat: NOW_SECONDS, nbf: NOW_SECONDS, exp: NOW_SECONDS + 60 }),
    ).toString('base64url');
    const input = `${header}.${payload}`;
    const token = `${input}.${createHmac('sha256', TOKEN_SETTINGS.secretKey).update(input).digest('base64url')}`;
    // jose alone accepts it: the rule is ours, and both paths must apply it.
    expect((await settle(() => verifyWithRing(token, ring, { ...checks, algorithms: ['HS256'] }))).ok).toBe(true);
    expect(await settle(async () => fast(token, checks))).toEqual({ ok: false, error: 'JOSENotSupported' });
    expect(await settle(async () => portable(token, checks))).toEqual({ ok: false, error: 'JOSENotSupported' });
  });

  it(
    'gives one answer for every generated token, whatever its header',
    async () => {
      await fc.assert(
        fc.asyncProperty(cases, async ([c, kid, secret]) => {
          const token = kid === 'as generated' ? c.token : resign(c.token, kid, secret);
          fc.pre(COMPACT_JWS.test(token));
          expect(await settle(async () => fast(token, checks)), token).toEqual(await settle(async () => portable(token, checks)));
        }),
        fuzzParameters('hmacJwtBothPaths', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});
