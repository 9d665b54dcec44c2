import { CompactSign, decodeProtectedHeader, errors, SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '../time/clock.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import type { ResolvedOptions } from '../options/options.js';
import { chooseSignatureVerifier, type VerifiedJws } from './choose-signature-verifier.js';
import { createKeyRing, type PublicJwks } from './key-ring.js';
import { randomId } from './random-id.js';
import { hasUnstorableChar } from '../text/unsafe-text.js';

export type TokenKind = 'access' | 'refresh';

export interface VerifiedToken {
  sub: string;
  sid: string;
  /** Always set on refresh tokens (verification demands it); set on access tokens we mint. */
  jti: string | undefined;
  exp: number;
  iat: number;
  /** Every verified claim, custom ones included. */
  payload: Readonly<JWTPayload>;
}

/** A verified refresh token: verification demands its `jti`. */
export interface VerifiedRefreshToken extends VerifiedToken {
  jti: string;
}

/** What `verify` resolves to for each kind. */
export type VerifiedTokenOf<K extends TokenKind> = K extends 'refresh' ? VerifiedRefreshToken : VerifiedToken;

export interface TokenService {
  /** exp = min(iat + accessTokenExpireSeconds, notAfter?). Adds customClaims (reserved ones rejected with an Error - a programmer error). */
  /** `jkt`: the session is bound to that DPoP key; the token carries `cnf.jkt` (RFC 9449 s6). */
  /**
   * `remember: false`: the token says so (`remember: false`, as the refresh token does), so a
   * step-up on it can set the access-token cookie without Max-Age. Only asked for with
   * JWT_ACCESS_TOKEN_COOKIE on: other hosts' access tokens are unchanged.
   */
  mintAccess(input: {
    userId: string;
    sessionId: string;
    notAfter?: Date;
    freshness?: FreshnessClaims;
    jkt?: string;
    remember?: boolean;
  }): Promise<string>;
  /**
   * exp = min(iat + refreshTokenExpireSeconds, notAfter?); carries jti. `remember: false` (a login
   * with `"remember": false`) adds the claim `remember: false`, carried from refresh to refresh.
   */
  mintRefresh(input: { userId: string; sessionId: string; jti: string; notAfter?: Date; remember?: boolean; jkt?: string }): Promise<string>;
  /** Throws SessauthError. */
  verify<K extends TokenKind>(token: string, expected: K): Promise<VerifiedTokenOf<K>>;
  /** The verifying public keys (current, then previous) for asymmetric algorithms; null for HMAC. */
  readonly jwks: PublicJwks | null;
  /**
   * Signs a Security Event Token (RFC 8417): the claims as given, header `typ: secevent+jwt`
   * and the current `kid`, with the token signing key. Only asymmetric configurations reach it
   * (resolveOptions refuses the transmitter under HMAC): receivers verify with the JWK set.
   */
  signSecurityEvent(claims: Readonly<Record<string, unknown>>): Promise<string>;
}

/**
 * RFC 9068 s2.2.1's `auth_time` (and `acr` when the session has one), added to an access token
 * only when the session domain asks (see sessions/freshness.ts): a host that does not use
 * step-up mints exactly the tokens it minted before.
 */
export interface FreshnessClaims {
  readonly authTime: Date;
  readonly acr: string | null;
}

/** The kind of a token is its JOSE `typ` header alone, compared exactly. */
const TYP: Readonly<Record<TokenKind, string>> = { access: 'at+jwt', refresh: 'rt+jwt' };
/**
 * On refresh tokens only: `false` when the login asked not to be remembered, so every refresh
 * keeps the refresh cookie a browser-session cookie (the refresh token is ours alone to read).
 */
export const REMEMBER_CLAIM = 'remember';
/**
 * RFC 7800's confirmation claim; `{ jkt }` names the DPoP key a token is bound to (RFC 9449 s6.1).
 * The refresh token carries it too, so a refresh knows the binding before its compare-and-swap.
 */
export const CONFIRMATION_CLAIM = 'cnf';

/** The DPoP key thumbprint a verified token is bound to (`cnf.jkt`), or null. */
export function boundKeyOf(payload: Readonly<JWTPayload>): string | null {
  const cnf = payload[CONFIRMATION_CLAIM];
  if (typeof cnf !== 'object' || cnf === null) return null;
  const { jkt } = cnf as { jkt?: unknown };
  return typeof jkt === 'string' && jkt !== '' ? jkt : null;
}
const RESERVED_CLAIMS: ReadonlySet<string> = new Set(['iss', 'aud', 'sub', 'sid', 'iat', 'nbf', 'exp', 'jti', 'typ']);
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Mints and verifies the access (`at+jwt`) and refresh (`rt+jwt`) JWTs. Keys are imported
 * once here. Claims: iss, aud (a single string), sub, sid, iat, nbf (= iat), exp, jti.
 * Verification accepts only `aud` as a string equal to the audience: we never mint an
 * array, so an array (even `[audience]`) is not one of ours.
 */
export async function createTokenService(options: ResolvedOptions, clock: Clock): Promise<TokenService> {
  // `kid` names the signing key; the previous keys still verify (see key-ring.ts).
  const ring = await createKeyRing(options);
  const { algorithm, issuer, audience } = options;
  // jose, or the HS* fast path where node:crypto exists: see choose-signature-verifier.ts.
  const verifySignature = chooseSignatureVerifier(ring, algorithm);
  const requiredClaims = ['iss', 'aud', 'sub', 'iat', 'nbf', 'exp'];
  // The longest `exp - iat` we ever mint per kind: a well-signed token claiming more was not
  // minted under these settings (a leaked key, an old config), so it is refused on decode too.
  const longestLifetime: Readonly<Record<TokenKind, number>> = {
    access: options.accessTokenExpireSeconds + options.leewaySeconds,
    refresh: options.refreshTokenExpireSeconds + options.leewaySeconds,
  };

  async function mint(kind: TokenKind, claims: JWTPayload, input: MintInput, lifetime: number, jti: string): Promise<string> {
    const iat = Math.floor(clock.now().getTime() / 1000);
    // A session near its end gets a token that ends with it (possibly already dead: harmless).
    const exp = input.notAfter === undefined ? iat + lifetime : Math.min(iat + lifetime, Math.floor(input.notAfter.getTime() / 1000));
    return new SignJWT({ ...claims, sid: input.sessionId })
      .setProtectedHeader({ alg: algorithm, typ: TYP[kind], kid: ring.kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(input.userId)
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(ring.signKey);
  }

  return {
    jwks: ring.jwks,
    signSecurityEvent(claims) {
      if (ring.jwks === null) return Promise.reject(new Error('signSecurityEvent: an HMAC key cannot sign a SET other services verify'));
      return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
        .setProtectedHeader({ alg: algorithm, typ: 'secevent+jwt', kid: ring.kid })
        .sign(ring.signKey);
    },
    async mintAccess(input) {
      checkMintInput(input);
      const custom = options.customClaims ? await options.customClaims({ userId: input.userId, sessionId: input.sessionId }) : {};
      const claims = checkCustomClaims(custom);
      // Ours win over a custom claim of the same name (the guard reads freshness from the session row anyway).
      const fresh = input.freshness === undefined ? claims : { ...claims, ...freshnessClaimsOf(input.freshness) };
      // A bound session's `cnf` is ours, over a custom claim of that name; an unbound token is as before.
      const bound = input.jkt === undefined ? fresh : { ...fresh, [CONFIRMATION_CLAIM]: { jkt: input.jkt } };
      if (input.remember === false) bound[REMEMBER_CLAIM] = false;
      return mint('access', bound, input, options.accessTokenExpireSeconds, randomId());
    },

    async mintRefresh(input) {
      checkMintInput(input);
      if (!isSafeId(input.jti)) throw new Error('mintRefresh: jti must be a non-empty string without NUL or lone surrogates');
      const claims: JWTPayload = input.remember === false ? { [REMEMBER_CLAIM]: false } : {};
      if (input.jkt !== undefined) claims[CONFIRMATION_CLAIM] = { jkt: input.jkt };
      return mint('refresh', claims, input, options.refreshTokenExpireSeconds, input.jti);
    },

    async verify(token, expected) {
      // Bounded before any parsing: an oversize token costs one length check.
      if (typeof token !== 'string' || token.length > options.maxTokenLength || !COMPACT_JWS.test(token)) {
        throw new SessauthError('invalid_token');
      }
      const now = clock.now();
      let verified: VerifiedJws;
      try {
        const result = verifySignature(token, {
          algorithm,
          issuer,
          audience,
          currentDate: now,
          clockTolerance: options.leewaySeconds,
          requiredClaims,
        });
        // The HS* fast path answers synchronously: no extra microtask on the guard's hot path.
        verified = result instanceof Promise ? await result : result;
      } catch (error) {
        throw verifyFailure(error, token, expected);
      }
      const { payload } = verified;
      const { typ } = verified.protectedHeader;
      checkTyp(typ, expected);
      return checkClaims(payload, expected, now.getTime() / 1000 + options.leewaySeconds);
    },
  };

  function checkClaims<K extends TokenKind>(payload: JWTPayload, expected: K, latestIat: number): VerifiedTokenOf<K> {
    const { sub, sid, jti, iat, exp } = payload as JWTPayload & { sid?: unknown };
    const jtiOk = jti === undefined ? expected === 'access' : isSafeId(jti);
    if (
      payload.aud !== audience ||
      !isSafeId(sub) ||
      !isSafeId(sid) ||
      !jtiOk ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      !Number.isSafeInteger(iat) ||
      !Number.isSafeInteger(exp) ||
      iat > latestIat ||
      exp - iat > longestLifetime[expected]
    ) {
      throw new SessauthError('invalid_token');
    }
    // jtiOk proved it: a refresh token's jti is a string here (TypeScript cannot narrow K).
    return { sub, sid, jti, exp, iat, payload } as VerifiedTokenOf<K>;
  }
}

interface MintInput {
  userId: string;
  sessionId: string;
  notAfter?: Date;
}

function freshnessClaimsOf(freshness: FreshnessClaims): JWTPayload {
  const authTime = Math.floor(freshness.authTime.getTime() / 1000);
  return freshness.acr === null ? { auth_time: authTime } : { auth_time: authTime, acr: freshness.acr };
}

function isSafeId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !hasUnstorableChar(value);
}

function checkMintInput(input: MintInput): void {
  if (!isSafeId(input.userId) || !isSafeId(input.sessionId)) {
    throw new Error('mint: userId and sessionId must be non-empty strings without NUL or lone surrogates');
  }
  if (input.notAfter !== undefined && (!(input.notAfter instanceof Date) || Number.isNaN(input.notAfter.getTime())))
    throw new Error('mint: notAfter must be a valid Date');
}

function checkCustomClaims(claims: unknown): JWTPayload {
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new IntegrationError('customClaims must return a plain object');
  }
  const reserved = Object.keys(claims).filter((name) => RESERVED_CLAIMS.has(name));
  if (reserved.length > 0) {
    throw new IntegrationError(
      `customClaims returned the reserved claim${reserved.length > 1 ? 's' : ''} ${reserved.join(', ')}: the core sets these itself; rename yours`,
    );
  }
  return claims as JWTPayload;
}

/** The other kind's `typ` is a wrong-kind error (400 on refresh, 401 on a protected route); anything else is invalid. */
function checkTyp(typ: unknown, expected: TokenKind): void {
  if (typ === TYP[expected]) return;
  const other: TokenKind = expected === 'access' ? 'refresh' : 'access';
  if (typ === TYP[other]) throw new SessauthError('invalid_token_type', { status: expected === 'refresh' ? 400 : 401 });
  throw new SessauthError('invalid_token');
}

/** jose's message never reaches a response: only our code, with jose's error kept as `cause`. */
function verifyFailure(error: unknown, token: string, expected: TokenKind): SessauthError {
  // Claim errors come after a good signature, so the header can be trusted: a wrong kind is
  // reported as such even when it is also expired.
  if (error instanceof errors.JWTClaimValidationFailed || error instanceof errors.JWTExpired) {
    try {
      checkTyp(decodeProtectedHeader(token).typ, expected);
    } catch (typError) {
      if (typError instanceof SessauthError) return new SessauthError(typError.code, { status: typError.status, cause: error });
    }
    if (error instanceof errors.JWTExpired) return new SessauthError('expired_token', { cause: error });
  }
  return new SessauthError('invalid_token', { cause: error });
}
