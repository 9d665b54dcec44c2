import { decodeJwt, decodeProtectedHeader, errors, SignJWT, UnsecuredJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/time/clock.js';
import { ERROR_MESSAGE } from '../src/errors/error-codes.js';
import { SessauthError, SettingsError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { importSigningKeys } from '../src/tokens/keys.js';
import { createTokenService, type TokenService } from '../src/tokens/token-service.js';
import { pemPair, type PemPair } from './helpers/pem-keys.js';

const SECRET = 'an-hmac-secret-of-exactly-32-by!';
const ISS = 'https://issuer.test';
const AUD = 'sessauth-test';
const T0 = Date.UTC(2030, 0, 1) / 1000; // whole seconds
const FAR = new Date((T0 + 30 * 86_400) * 1000);
const base: SessauthOptions = { secretKey: SECRET, issuer: ISS, audience: AUD };

function movableClock(): Clock & { set(seconds: number): void } {
  let now = T0;
  return { now: () => new Date(now * 1000), set: (seconds) => void (now = seconds) };
}

async function setup(overrides: Partial<SessauthOptions> = {}) {
  const clock = movableClock();
  return { clock, tokens: await createTokenService(resolveOptions({ ...base, ...overrides }), clock) };
}

async function failure(promise: Promise<unknown>): Promise<SessauthError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessauthError) return error;
    throw error;
  }
  throw new Error('expected a SessauthError');
}

const claims = (extra: JWTPayload = {}): JWTPayload => ({
  iss: ISS,
  aud: AUD,
  sub: 'user-1',
  sid: 'sess-1',
  iat: T0,
  nbf: T0,
  exp: T0 + 300,
  jti: 'jti-1',
  ...extra,
});
const b64url = (value: unknown) => btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
const forge = (header: Partial<JWTHeaderParameters>, payload: JWTPayload, key: Uint8Array = new TextEncoder().encode(SECRET)) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256', ...header }).sign(key);

describe('token service (HS256)', () => {
  let tokens: TokenService;
  let clock: ReturnType<typeof movableClock>;
  beforeAll(async () => ({ tokens, clock } = await setup()));
  const mintAccess = () => tokens.mintAccess({ userId: 'user-1', sessionId: 'sess-1', notAfter: FAR });
  const mintRefresh = () => tokens.mintRefresh({ userId: 'user-1', sessionId: 'sess-1', jti: 'jti-1', notAfter: FAR });

  it('round-trips an access token with every claim and the exact typ', async () => {
    clock.set(T0);
    const token = await mintAccess();
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: ISS, aud: AUD, sub: 'user-1', sid: 'sess-1', iat: T0, nbf: T0, exp: T0 + 300 });
    expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await tokens.verify(token, 'access')).toEqual({ sub: 'user-1', sid: 'sess-1', jti: payload.jti, iat: T0, exp: T0 + 300, payload });
  });

  it('round-trips a refresh token carrying its jti', async () => {
    clock.set(T0);
    const token = await mintRefresh();
    expect(decodeProtectedHeader(token).typ).toBe('rt+jwt');
    expect(await tokens.verify(token, 'refresh')).toEqual({
      sub: 'user-1',
      sid: 'sess-1',
      jti: 'jti-1',
      iat: T0,
      exp: T0 + 1_209_600,
      payload: decodeJwt(token),
    });
  });

  it('ends a token no later than notAfter', async () => {
    clock.set(T0);
    const token = await tokens.mintRefresh({ userId: 'u', sessionId: 's', jti: 'j', notAfter: new Date((T0 + 90) * 1000) });
    expect(decodeJwt(token).exp).toBe(T0 + 90);
  });

  it('reports the other kind as invalid_token_type: 400 on refresh, 401 on a protected route', async () => {
    clock.set(T0);
    expect(await failure(tokens.verify(await mintAccess(), 'refresh'))).toMatchObject({ code: 'invalid_token_type', status: 400 });
    expect(await failure(tokens.verify(await mintRefresh(), 'access'))).toMatchObject({ code: 'invalid_token_type', status: 401 });
    clock.set(T0 + 400); // expired and of the wrong kind: the kind wins
    expect(await failure(tokens.verify(await forge({ typ: 'rt+jwt' }, claims()), 'access'))).toMatchObject({ code: 'invalid_token_type' });
  });

  it.each(['AT+JWT', 'application/at+jwt', 'JWT', 'at+JWT', undefined])('rejects typ %j as invalid_token', async (typ) => {
    clock.set(T0);
    const error = await failure(tokens.verify(await forge(typ === undefined ? {} : { typ }, claims()), 'access'));
    expect(error.code).toBe('invalid_token');
  });

  it.each<[string, JWTPayload]>([
    ['another audience', { aud: 'other' }],
    ['an audience array, even [audience]', { aud: [AUD] }],
    ['another issuer', { iss: 'https://evil.test' }],
    ['no sub', { sub: undefined }],
    ['no sid', { sid: undefined }],
    ['a numeric sub', { sub: 42 as unknown as string }],
    ['a numeric sid', { sid: 7 }],
    ['an empty sid', { sid: '' }],
    ['a NUL byte in sid', { sid: 'se\u0000ss' }],
    ['a lone surrogate in sub', { sub: 'user\uD800' }],
    ['a lone surrogate in jti', { jti: '\uDC00x' }],
    ['no iat', { iat: undefined }],
    ['no nbf', { nbf: undefined }],
    ['no exp', { exp: undefined }],
    ['nbf in the future', { nbf: T0 + 60 }],
    ['iat in the future', { iat: T0 + 60 }],
  ])('rejects a token with %s as invalid_token', async (_, extra) => {
    clock.set(T0);
    expect((await failure(tokens.verify(await forge({ typ: 'at+jwt' }, claims(extra)), 'access'))).code).toBe('invalid_token');
  });

  it('rejects a refresh token without jti (legacy tokens are never adopted) but accepts such an access token', async () => {
    clock.set(T0);
    const noJti = claims({ jti: undefined });
    expect((await failure(tokens.verify(await forge({ typ: 'rt+jwt' }, noJti), 'refresh'))).code).toBe('invalid_token');
    expect((await tokens.verify(await forge({ typ: 'at+jwt' }, noJti), 'access')).jti).toBeUndefined();
  });

  it('expires with the clock: expired_token at exp, fine one second before', async () => {
    clock.set(T0);
    const token = await mintAccess();
    clock.set(T0 + 299);
    await expect(tokens.verify(token, 'access')).resolves.toMatchObject({ sub: 'user-1' });
    clock.set(T0 + 300);
    const error = await failure(tokens.verify(token, 'access'));
    expect(error).toMatchObject({ code: 'expired_token', status: 401, message: ERROR_MESSAGE.expired_token });
    expect(error.cause).toBeInstanceOf(errors.JWTExpired);
  });

  it('honours the leeway on exp and nbf', async () => {
    const { tokens: lenient, clock: c } = await setup({ leewaySeconds: 30 });
    const token = await lenient.mintAccess({ userId: 'u', sessionId: 's', notAfter: FAR });
    c.set(T0 + 329);
    await expect(lenient.verify(token, 'access')).resolves.toMatchObject({ sub: 'u' });
    c.set(T0 + 330);
    expect((await failure(lenient.verify(token, 'access'))).code).toBe('expired_token');
    c.set(T0);
    const early = await forge({ typ: 'at+jwt' }, claims({ nbf: T0 + 30, iat: T0 + 30 }));
    await expect(lenient.verify(early, 'access')).resolves.toMatchObject({ sub: 'user-1' });
    const tooEarly = await forge({ typ: 'at+jwt' }, claims({ nbf: T0 + 31 }));
    expect((await failure(lenient.verify(tooEarly, 'access'))).code).toBe('invalid_token');
  });

  it('rejects alg none, a tampered signature and malformed or oversize tokens without leaking jose messages', async () => {
    clock.set(T0);
    const none = `${b64url({ alg: 'none', typ: 'at+jwt' })}.${b64url(claims())}.`;
    const [header, payload, signature] = (await mintAccess()).split('.') as [string, string, string];
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [
      none,
      `${none}AAAA`,
      new UnsecuredJWT(claims()).encode(),
      tampered,
      'a.b',
      'a.b.c.d',
      `${header}.${payload}.sig=`,
      '',
      'x'.repeat(8193),
    ]) {
      const error = await failure(tokens.verify(bad, 'access'));
      expect(error.code).toBe('invalid_token');
      expect(error.message).toBe(ERROR_MESSAGE.invalid_token);
    }
    expect((await failure(tokens.verify(tampered, 'access'))).cause).toBeInstanceOf(errors.JWSSignatureVerificationFailed);
  });

  it('checks the length before parsing', async () => {
    const { tokens: small } = await setup({ maxTokenLength: 256 });
    const padded = `${'e'.repeat(100)}.${'e'.repeat(100)}.${'e'.repeat(57)}`;
    expect((await failure(small.verify(padded, 'access'))).cause).toBeUndefined();
  });

  it('refuses to mint for malformed ids (a programmer error, not a SessauthError)', async () => {
    await expect(tokens.mintAccess({ userId: '', sessionId: 's', notAfter: FAR })).rejects.toThrow(/userId and sessionId/);
    await expect(tokens.mintRefresh({ userId: 'u', sessionId: 's', jti: 'a\u0000', notAfter: FAR })).rejects.toThrow(/jti/);
  });
});

describe('token service: algorithms and claims', () => {
  it('rejects an HS256 token under an HS512 configuration', async () => {
    const secret = 'x'.repeat(64);
    const { tokens } = await setup({ algorithm: 'HS512', secretKey: secret });
    const hs256 = await forge({ typ: 'at+jwt' }, claims(), new TextEncoder().encode(secret));
    expect((await failure(tokens.verify(hs256, 'access'))).code).toBe('invalid_token');
    const own = await tokens.mintAccess({ userId: 'u', sessionId: 's', notAfter: FAR });
    expect(decodeProtectedHeader(own).alg).toBe('HS512');
    await expect(tokens.verify(own, 'access')).resolves.toMatchObject({ sub: 'u' });
  });

  it('adds custom claims to access tokens only and refuses reserved ones', async () => {
    const { tokens } = await setup({ customClaims: async ({ userId }) => ({ role: 'admin', uid: userId }) });
    const access = await tokens.mintAccess({ userId: 'u', sessionId: 's', notAfter: FAR });
    expect(decodeJwt(access)).toMatchObject({ role: 'admin', uid: 'u', sub: 'u' });
    const refresh = await tokens.mintRefresh({ userId: 'u', sessionId: 's', jti: 'j', notAfter: FAR });
    expect(decodeJwt(refresh).role).toBeUndefined();
    for (const name of ['sub', 'sid', 'exp', 'jti', 'typ']) {
      const { tokens: bad } = await setup({ customClaims: () => ({ [name]: 'x' }) });
      const minting = bad.mintAccess({ userId: 'u', sessionId: 's', notAfter: FAR });
      await expect(minting).rejects.toThrow(`reserved claim ${name}`);
      await expect(minting).rejects.not.toBeInstanceOf(SessauthError);
    }
  });
});

describe('token service: asymmetric algorithms', () => {
  const keys = {} as Record<'rsa' | 'p256' | 'ed' | 'other', PemPair>;
  beforeAll(async () => {
    [keys.rsa, keys.p256, keys.ed, keys.other] = await Promise.all([pemPair('rsa2048'), pemPair('p256'), pemPair('ed25519'), pemPair('ed25519')]);
  }, 60_000);

  it.each([
    ['RS256', 'rsa'],
    ['PS256', 'rsa'],
    ['ES256', 'p256'],
    ['EdDSA', 'ed'],
  ] as const)('round-trips %s', async (algorithm, key) => {
    const { tokens } = await setup({ algorithm, secretKey: keys[key].privateKey, verifyingKey: keys[key].publicKey });
    const refresh = await tokens.mintRefresh({ userId: 'u', sessionId: 's', jti: 'j', notAfter: FAR });
    expect(decodeProtectedHeader(refresh)).toEqual({ alg: algorithm, typ: 'rt+jwt', kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    await expect(tokens.verify(refresh, 'refresh')).resolves.toMatchObject({ sub: 'u', sid: 's', jti: 'j' });
    const hmacForged = await forge({ typ: 'rt+jwt' }, claims());
    expect((await failure(tokens.verify(hmacForged, 'refresh'))).code).toBe('invalid_token');
  });

  it('rejects a token signed by another key of the same algorithm', async () => {
    const { tokens: ours } = await setup({ algorithm: 'EdDSA', secretKey: keys.ed.privateKey, verifyingKey: keys.ed.publicKey });
    const { tokens: theirs } = await setup({ algorithm: 'EdDSA', secretKey: keys.other.privateKey, verifyingKey: keys.other.publicKey });
    const foreign = await theirs.mintAccess({ userId: 'u', sessionId: 's', notAfter: FAR });
    expect((await failure(ours.verify(foreign, 'access'))).code).toBe('invalid_token');
  });

  it('importSigningKeys proves the pair itself where node:crypto is unavailable', async () => {
    const proc = (globalThis as unknown as { process: { getBuiltinModule?: unknown } }).process;
    const original = proc.getBuiltinModule;
    proc.getBuiltinModule = undefined;
    try {
      const mismatched = resolveOptions({ ...base, algorithm: 'EdDSA', secretKey: keys.ed.privateKey, verifyingKey: keys.other.publicKey });
      const error = await importSigningKeys(mismatched).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SettingsError);
      expect((error as SettingsError).setting).toBe('JWT_VERIFYING_KEY');
    } finally {
      proc.getBuiltinModule = original;
    }
  });
});
