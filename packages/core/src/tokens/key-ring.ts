import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  errors,
  exportJWK,
  importSPKI,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  type JWTVerifyResult,
  type KeyLike,
} from 'jose';
import { SettingsError } from '../errors/sessauth-error.js';
import type { ResolvedOptions } from '../options/options.js';
import { importHmacKey, importSigningKeys } from './keys.js';

/** One verifying key as published at `<prefix>/jwks.json`: public members only. */
export interface PublicJwk {
  readonly kty: 'RSA' | 'EC' | 'OKP';
  readonly kid: string;
  readonly alg: string;
  readonly use: 'sig';
  readonly n?: string;
  readonly e?: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
}

export interface PublicJwks {
  readonly keys: readonly PublicJwk[];
}

/**
 * The keys of one configuration: the current one signs (its `kid` goes in every header),
 * the current and previous ones verify. `getKey` is jose's key lookup for `jwtVerify`.
 */
export interface KeyRing {
  readonly kid: string;
  readonly signKey: CryptoKey | KeyLike;
  readonly getKey: JWTVerifyGetKey;
  /** Current and previous public keys for asymmetric algorithms; null for HMAC (nothing is public). */
  readonly jwks: PublicJwks | null;
  /** HMAC only: every verifying key by its `kid`, current first. */
  readonly hmacKeys: ReadonlyMap<string, CryptoKey | KeyLike> | null;
}

const HMAC_HASH: Readonly<Record<string, string>> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };
const encoder = new TextEncoder();

/**
 * The `kid` of a key:
 * - asymmetric: the RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key, so
 *   anyone holding the public key can compute it;
 * - HMAC: the first 16 base64url characters (96 bits) of HMAC-SHA-256 keyed with the secret
 *   over the ASCII text `sessauth-kid`. A MAC under the secret tells no more about it than
 *   a token's own signature does, and unlike a plain hash it cannot be checked against a
 *   list of guessed secrets without also computing a MAC per guess, the same work as
 *   checking guesses against any token.
 */
export async function hmacKid(secret: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode('sessauth-kid')));
  return toBase64Url(mac).slice(0, 16);
}

/** Imports every configured key once, at start-up. Failures throw a `SettingsError` naming the setting. */
export async function createKeyRing(options: ResolvedOptions): Promise<KeyRing> {
  const { signKey } = await importSigningKeys(options);
  const hash = HMAC_HASH[options.algorithm];
  if (hash !== undefined) return hmacRing(options, signKey, hash);
  const pems = [options.verifyingKey!, ...options.previousVerifyingKeys];
  const keys = await Promise.all(
    pems.map((pem, i) => publicJwk(pem, options.algorithm, i === 0 ? 'JWT_VERIFYING_KEY' : 'JWT_PREVIOUS_VERIFYING_KEYS')),
  );
  const localSet = createLocalJWKSet({ keys: keys.map((jwk) => ({ ...jwk })) });
  return {
    kid: keys[0]!.kid,
    signKey,
    getKey: (header, token) => {
      rejectOddKid(header.kid);
      return localSet(header, token);
    },
    jwks: Object.freeze({ keys: Object.freeze(keys) }),
    hmacKeys: null,
  };
}

async function hmacRing(options: ResolvedOptions, signKey: CryptoKey | KeyLike, hash: string): Promise<KeyRing> {
  const previous = await Promise.all(options.previousSecretKeys.map((secret) => importHmacKey(secret, hash)));
  const secrets = [options.secretKey, ...options.previousSecretKeys];
  const kids = await Promise.all(secrets.map(hmacKid));
  const byKid = new Map<string, CryptoKey | KeyLike>(kids.map((kid, i) => [kid, i === 0 ? signKey : previous[i - 1]!]));
  const all = [...byKid.values()];
  return {
    kid: kids[0]!,
    signKey,
    // The same contract as jose's local JWK set (which takes public keys only): a kid picks
    // its key or none; no kid offers every key through JWKSMultipleMatchingKeys.
    getKey: (header) => {
      rejectOddKid(header.kid);
      if (typeof header.kid === 'string') {
        const key = byKid.get(header.kid);
        if (key === undefined) throw new errors.JWKSNoMatchingKey();
        return key;
      }
      if (all.length === 1) return all[0]!;
      const error = new errors.JWKSMultipleMatchingKeys();
      error[Symbol.asyncIterator] = async function* candidates() {
        yield* all;
      };
      throw error;
    },
    jwks: null,
    hmacKeys: byKid,
  };
}

/** A `kid` that is present but not a string is not ours: refused, rather than treated as absent. */
function rejectOddKid(kid: unknown): void {
  if (kid !== undefined && typeof kid !== 'string') throw new errors.JWKSNoMatchingKey();
}

/** The public members alone, picked by name: whatever the import holds, nothing private is copied. */
async function publicJwk(pem: string, algorithm: string, setting: string): Promise<PublicJwk> {
  let exported: JWK;
  try {
    exported = await exportJWK(await importSPKI(pem, algorithm, { extractable: true }));
  } catch {
    throw new SettingsError(setting, 'could not be imported as a PEM public key for the configured JWT_ALGORITHM');
  }
  const base =
    exported.kty === 'RSA'
      ? { kty: 'RSA' as const, n: exported.n!, e: exported.e! }
      : exported.kty === 'EC'
        ? { kty: 'EC' as const, crv: exported.crv!, x: exported.x!, y: exported.y! }
        : { kty: 'OKP' as const, crv: exported.crv!, x: exported.x! };
  return Object.freeze({ ...base, kid: await calculateJwkThumbprint(base, 'sha256'), alg: algorithm, use: 'sig' as const });
}

/**
 * `jwtVerify` against the ring. A token without `kid` (minted before this release) gets each
 * configured key in turn: only a bad signature moves on to the next key; any other failure
 * (expired, wrong audience) is the answer, as it would be with one key.
 */
export async function verifyWithRing(token: string, ring: KeyRing, options: JWTVerifyOptions): Promise<JWTVerifyResult<JWTPayload>> {
  try {
    return await jwtVerify(token, ring.getKey, options);
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    let last: unknown = error;
    for await (const key of error) {
      try {
        return await jwtVerify(token, key, options);
      } catch (failure) {
        if (!(failure instanceof errors.JWSSignatureVerificationFailed)) throw failure;
        last = failure;
      }
    }
    throw last;
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
