import { calculateJwkThumbprint, decodeProtectedHeader, importSPKI, exportJWK, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/time/clock.js';
import { SessauthError, SettingsError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions, SigningAlgorithm } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';
import { hmacKid } from '../src/tokens/key-ring.js';
import { createTokenService, type TokenService } from '../src/tokens/token-service.js';
import { pemPair, type KeySpec, type PemPair } from './helpers/pem-keys.js';

const ISS = 'https://issuer.test';
const AUD = 'sessauth-test';
const T0 = Date.UTC(2030, 0, 1) / 1000;
const clock: Clock = { now: () => new Date(T0 * 1000) };
const SECRET_A = 'hmac-secret-A-0123456789abcdefghijklmnop';
const SECRET_B = 'hmac-secret-B-0123456789abcdefghijklmnop';
const SECRET_C = 'hmac-secret-C-0123456789abcdefghijklmnop';
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth', 'r', 't'];

const base = { issuer: ISS, audience: AUD };
const service = (options: SessauthOptions): Promise<TokenService> => createTokenService(resolveOptions(options), clock);
const mint = (tokens: TokenService) => tokens.mintAccess({ userId: 'user-1', sessionId: 'sess-1' });

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessauthError) return error.code;
    throw error;
  }
  return 'verified';
}

function settingsError(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('expected a SettingsError');
}

/** A token as this release's predecessor minted it: same claims, no kid. */
function kidless(key: CryptoKey | Uint8Array, alg: string, extra: JWTPayload = {}): Promise<string> {
  return new SignJWT({ sid: 'sess-1', ...extra })
    .setProtectedHeader({ alg, typ: 'at+jwt' })
    .setIssuer(ISS)
    .setAudience(AUD)
    .setSubject('user-1')
    .setIssuedAt(T0)
    .setNotBefore(T0)
    .setExpirationTime(T0 + 300)
    .setJti('jti-1')
    .sign(key);
}

describe('key rotation (HMAC)', () => {
  it('puts the kid of the signing key in every header: a MAC-derived id, not the secret', async () => {
    const tokens = await service({ ...base, secretKey: SECRET_A });
    const header = decodeProtectedHeader(await mint(tokens));
    expect(header.kid).toBe(await hmacKid(SECRET_A));
    expect(header.kid).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await hmacKid(SECRET_B)).not.toBe(header.kid);
    const refresh = await tokens.mintRefresh({ userId: 'user-1', sessionId: 'sess-1', jti: 'j' });
    expect(decodeProtectedHeader(refresh).kid).toBe(header.kid);
    expect(tokens.jwks).toBeNull();
  });

  it('verifies tokens of a previous key until it is removed, then answers invalid_token', async () => {
    const underA = await mint(await service({ ...base, secretKey: SECRET_A }));
    const rotated = await service({ ...base, secretKey: SECRET_B, previousSecretKeys: [SECRET_A], securityStampKey: SECRET_A });
    expect(await code(rotated.verify(underA, 'access'))).toBe('verified');
    const underB = await mint(rotated);
    expect(decodeProtectedHeader(underB).kid).toBe(await hmacKid(SECRET_B));
    const removed = await service({ ...base, secretKey: SECRET_B, securityStampKey: SECRET_A });
    expect(await code(removed.verify(underA, 'access'))).toBe('invalid_token');
    expect(await code(removed.verify(underB, 'access'))).toBe('verified');
  });

  it('refuses a token whose kid names no configured key, even when its signature is good', async () => {
    const tokens = await service({ ...base, secretKey: SECRET_A });
    const key = new TextEncoder().encode(SECRET_A);
    const unknownKid = await new SignJWT({ sid: 'sess-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 'not-a-key' })
      .setIssuer(ISS)
      .setAudience(AUD)
      .setSubject('user-1')
      .setIssuedAt(T0)
      .setNotBefore(T0)
      .setExpirationTime(T0 + 300)
      .sign(key);
    expect(await code(tokens.verify(unknownKid, 'access'))).toBe('invalid_token');
    const numericKid = await new SignJWT({ sid: 'sess-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 7 as unknown as string })
      .setIssuer(ISS)
      .setAudience(AUD)
      .setSubject('user-1')
      .setIssuedAt(T0)
      .setNotBefore(T0)
      .setExpirationTime(T0 + 300)
      .sign(key);
    expect(await code(tokens.verify(numericKid, 'access'))).toBe('invalid_token');
  });

  it('tries a kid-less token (minted before kids) against the current and the previous keys only', async () => {
    const tokens = await service({ ...base, secretKey: SECRET_B, previousSecretKeys: [SECRET_C, SECRET_A], securityStampKey: SECRET_A });
    const enc = (secret: string) => new TextEncoder().encode(secret);
    expect(await code(tokens.verify(await kidless(enc(SECRET_A), 'HS256'), 'access'))).toBe('verified');
    expect(await code(tokens.verify(await kidless(enc(SECRET_B), 'HS256'), 'access'))).toBe('verified');
    expect(await code(tokens.verify(await kidless(enc('hmac-secret-D-0123456789abcdefghijklmnop'), 'HS256'), 'access'))).toBe('invalid_token');
    // A claim failure under the right key is the answer, not a reason to try the next key.
    const expired = await new SignJWT({ sid: 'sess-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(ISS)
      .setAudience(AUD)
      .setSubject('user-1')
      .setIssuedAt(T0 - 600)
      .setNotBefore(T0 - 600)
      .setExpirationTime(T0 - 300)
      .sign(enc(SECRET_A));
    expect(await code(tokens.verify(expired, 'access'))).toBe('expired_token');
  });

  it('applies the JWT_SECRET_KEY checks to each previous secret and names the setting and the entry', () => {
    const cases: [string[], RegExp][] = [
      [['too-short'], /entry 1: must be at least 32 bytes/],
      [[SECRET_A, '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'], /entry 2: looks like a PEM key/],
      [['{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}'], /entry 1: looks like a JWK/],
      [[SECRET_B], /entry 1: is the current JWT_SECRET_KEY/],
      [[SECRET_A, SECRET_A], /entry 2: repeats an earlier entry/],
    ];
    for (const [previousSecretKeys, message] of cases) {
      const error = settingsError(() => resolveOptions({ ...base, secretKey: SECRET_B, previousSecretKeys, securityStampKey: SECRET_A }));
      expect(error.setting).toBe('JWT_PREVIOUS_SECRET_KEYS');
      expect(error.key).toBe('previousSecretKeys');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('hmac-secret');
    }
  });

  it('requires the security-stamp key to be pinned when previous keys are configured, and checks it', () => {
    const missing = settingsError(() => resolveOptions({ ...base, secretKey: SECRET_B, previousSecretKeys: [SECRET_A] }));
    expect(missing.setting).toBe('JWT_SECURITY_STAMP_KEY');
    expect(missing.key).toBe('securityStampKey');
    const short = settingsError(() => resolveOptions({ ...base, secretKey: SECRET_B, securityStampKey: 'short' }));
    expect(short.setting).toBe('JWT_SECURITY_STAMP_KEY');
    expect(resolveOptions({ ...base, secretKey: SECRET_A }).securityStampKey).toBe(SECRET_A);
  });

  it('reads JWT_PREVIOUS_SECRET_KEYS comma-separated and JWT_SECURITY_STAMP_KEY from the environment', () => {
    const options = settingsFromEnv(
      {
        JWT_SECRET_KEY: SECRET_B,
        JWT_PREVIOUS_SECRET_KEYS: ` ${SECRET_A} , ${SECRET_C},`,
        JWT_SECURITY_STAMP_KEY: SECRET_A,
        JWT_ISSUER: ISS,
        JWT_AUDIENCE: AUD,
      },
      { logger: { warn: () => {} } },
    );
    expect(options.previousSecretKeys).toEqual([SECRET_A, SECRET_C]);
    expect(resolveOptions(options).previousSecretKeys).toEqual([SECRET_A, SECRET_C]);
  });

  it('keeps the stamp digest key across the rotation: the pinned key, not the signing key', () => {
    const rotated = resolveOptions({ ...base, secretKey: SECRET_B, previousSecretKeys: [SECRET_A], securityStampKey: SECRET_A });
    expect(rotated.securityStampKey).toBe(SECRET_A);
    expect(resolveOptions({ ...base, secretKey: SECRET_B, securityStampKey: SECRET_A }).securityStampKey).toBe(SECRET_A);
  });
});

const ASYMMETRIC: [SigningAlgorithm, KeySpec][] = [
  ['RS256', 'rsa2048'],
  ['ES256', 'p256'],
  ['EdDSA', 'ed25519'],
];

describe.each(ASYMMETRIC)('key rotation (%s)', (algorithm, spec) => {
  let a: PemPair;
  let b: PemPair;
  let next: PemPair;
  beforeAll(async () => {
    [a, b, next] = await Promise.all([pemPair(spec), pemPair(spec), pemPair(spec)]);
  });
  const keysOf = (pair: PemPair) => ({ secretKey: pair.privateKey, verifyingKey: pair.publicKey, algorithm });

  it('uses the RFC 7638 thumbprint of the public key as kid', async () => {
    const tokens = await service({ ...base, ...keysOf(a) });
    const kid = decodeProtectedHeader(await mint(tokens)).kid;
    expect(kid).toBe(await calculateJwkThumbprint(await exportJWK(await importSPKI(a.publicKey, algorithm, { extractable: true }))));
    expect(tokens.jwks?.keys.map((key) => key.kid)).toEqual([kid]);
  });

  it('verifies a previous key until removed, and publishes current then previous public keys, nothing private', async () => {
    const underA = await mint(await service({ ...base, ...keysOf(a) }));
    const rotated = await service({ ...base, ...keysOf(b), previousVerifyingKeys: [a.publicKey, next.publicKey], securityStampKey: a.privateKey });
    expect(await code(rotated.verify(underA, 'access'))).toBe('verified');
    const jwks = rotated.jwks!;
    expect(jwks.keys).toHaveLength(3);
    expect(jwks.keys[0]!.kid).toBe(decodeProtectedHeader(await mint(rotated)).kid);
    expect(jwks.keys[1]!.kid).toBe(decodeProtectedHeader(underA).kid);
    for (const jwk of jwks.keys) {
      expect(jwk).toMatchObject({ alg: algorithm, use: 'sig' });
      for (const member of PRIVATE_MEMBERS) expect(Object.keys(jwk)).not.toContain(member);
    }
    const serialized = JSON.stringify(jwks);
    for (const member of PRIVATE_MEMBERS) expect(serialized).not.toContain(`"${member}":`);

    const removed = await service({ ...base, ...keysOf(b) });
    expect(await code(removed.verify(underA, 'access'))).toBe('invalid_token');
  });

  it('tries a kid-less token against the current and previous public keys', async () => {
    const pkcs8 = async (pem: string) => (await import('jose')).importPKCS8(pem, algorithm);
    const rotated = await service({ ...base, ...keysOf(b), previousVerifyingKeys: [a.publicKey], securityStampKey: a.privateKey });
    expect(await code(rotated.verify(await kidless((await pkcs8(a.privateKey)) as CryptoKey, algorithm), 'access'))).toBe('verified');
    expect(await code(rotated.verify(await kidless((await pkcs8(next.privateKey)) as CryptoKey, algorithm), 'access'))).toBe('invalid_token');
  });

  it('checks previous public keys like JWT_VERIFYING_KEY and refuses previous secrets', () => {
    const previous = (previousVerifyingKeys: string[]) =>
      settingsError(() => resolveOptions({ ...base, ...keysOf(b), previousVerifyingKeys, securityStampKey: a.privateKey }));
    expect(previous([a.privateKey]).message).toMatch(/entry 1: is a private key/);
    expect(previous([b.publicKey]).message).toMatch(/entry 1: is the current JWT_VERIFYING_KEY/);
    expect(previous([a.publicKey, a.publicKey]).message).toMatch(/entry 2: repeats an earlier entry/);
    expect(previous([a.privateKey]).setting).toBe('JWT_PREVIOUS_VERIFYING_KEYS');
    const secrets = settingsError(() => resolveOptions({ ...base, ...keysOf(b), previousSecretKeys: [SECRET_A], securityStampKey: a.privateKey }));
    expect(secrets.setting).toBe('JWT_PREVIOUS_SECRET_KEYS');
  });

  it('reads several PEM blocks from JWT_PREVIOUS_VERIFYING_KEYS, one-line \\n form included', () => {
    const oneLine = `${a.publicKey}${next.publicKey}`.replaceAll('\n', '\\n');
    const options = settingsFromEnv(
      {
        JWT_ALGORITHM: algorithm,
        JWT_SECRET_KEY: b.privateKey,
        JWT_VERIFYING_KEY: b.publicKey,
        JWT_PREVIOUS_VERIFYING_KEYS: oneLine,
        JWT_SECURITY_STAMP_KEY: a.privateKey,
        JWT_ISSUER: ISS,
        JWT_AUDIENCE: AUD,
      },
      { logger: { warn: () => {} } },
    );
    expect(resolveOptions(options).previousVerifyingKeys).toEqual([a.publicKey, next.publicKey]);
  });
});

it('a previous public key of another algorithm family is refused with the setting and entry named', async () => {
  const [rsa, ec] = await Promise.all([pemPair('rsa2048'), pemPair('p256')]);
  const error = settingsError(() =>
    resolveOptions({
      ...base,
      algorithm: 'RS256',
      secretKey: rsa.privateKey,
      verifyingKey: rsa.publicKey,
      previousVerifyingKeys: [ec.publicKey],
      securityStampKey: SECRET_A,
    }),
  );
  expect(error.setting).toBe('JWT_PREVIOUS_VERIFYING_KEYS');
  expect(error.message).toMatch(/entry 1: must be an RSA key/);
});
