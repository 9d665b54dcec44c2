// A DPoP client written from RFC 9449's text (s4.2, s7.1) with jose and node:crypto, never
// with the core's code: the proofs an honest client sends, and the ones an attacker tries.
import { createHash, createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export type ProofAlgorithm = 'ES256' | 'EdDSA' | 'RS256' | 'PS256';

/** One key pair a client holds, with its public JWK and RFC 7638 thumbprint. */
export interface DpopKey {
  readonly alg: ProofAlgorithm;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  /** The private JWK too: a test shows a proof carrying it is refused. */
  readonly privateJwk: JWK;
  readonly jkt: string;
}

export async function makeDpopKey(alg: ProofAlgorithm = 'ES256'): Promise<DpopKey> {
  const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  const privateJwk = await exportJWK(pair.privateKey);
  const publicJwk = await exportJWK(pair.publicKey);
  return { alg, privateKey: pair.privateKey as CryptoKey, publicJwk, privateJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

/** What one proof claims; `iat` in seconds (the app's clock), `ath` computed from `accessToken`. */
export interface ProofClaims {
  readonly htm: string;
  readonly htu: string;
  readonly iat: number;
  readonly jti?: string;
  readonly accessToken?: string;
  /** Replaces the `ath` computed from `accessToken`. */
  readonly ath?: string;
}

/** RFC 9449 s4.2: base64url of the SHA-256 of the access token's ASCII. */
export function athOf(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

function payloadOf(claims: ProofClaims): Record<string, unknown> {
  const ath = claims.ath ?? (claims.accessToken === undefined ? undefined : athOf(claims.accessToken));
  return { jti: claims.jti ?? randomUUID(), htm: claims.htm, htu: claims.htu, iat: claims.iat, ...(ath === undefined ? {} : { ath }) };
}

/** An honest proof: `typ: dpop+jwt`, the key's `alg`, its public `jwk` (RFC 9449 s4.2). */
export function signProof(key: DpopKey, claims: ProofClaims, header: { typ?: string; jwk?: JWK } = {}): Promise<string> {
  return new SignJWT(payloadOf(claims))
    .setProtectedHeader({ alg: key.alg, typ: header.typ ?? 'dpop+jwt', jwk: header.jwk ?? key.publicJwk })
    .sign(key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** `alg: none` with an empty signature: an unsigned proof. */
export function unsignedProof(key: DpopKey, claims: ProofClaims): string {
  return `${b64({ alg: 'none', typ: 'dpop+jwt', jwk: key.publicJwk })}.${b64(payloadOf(claims))}.`;
}

/** HS256 under a symmetric key the proof itself names (`jwk` of kty `oct`): anyone could forge it. */
export function hmacProof(claims: ProofClaims): Promise<string> {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const jwk = { kty: 'oct', k: Buffer.from(secret).toString('base64url') };
  return new SignJWT(payloadOf(claims)).setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk }).sign(secret);
}

/** RS256 under a 1024-bit RSA key (signed with node:crypto: jose will not sign with one). */
export function weakRsaProof(claims: ProofClaims): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const jwk = publicKey.export({ format: 'jwk' });
  const input = `${b64({ alg: 'RS256', typ: 'dpop+jwt', jwk: { kty: 'RSA', n: jwk.n, e: jwk.e } })}.${b64(payloadOf(claims))}`;
  const signature = createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url');
  return `${input}.${signature}`;
}
