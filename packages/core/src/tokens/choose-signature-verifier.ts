import { decodeProtectedHeader, errors, type JWTPayload } from 'jose';
import { type NodeCrypto, nodeCrypto } from '../runtime/node-crypto.js';
import { createHmacJwtVerifier } from './hmac-jwt-verifier.js';
import { type KeyRing, verifyWithRing } from './key-ring.js';

/** The checks every verification applies, whichever path runs it. */
export interface SignatureChecks {
  readonly algorithm: string;
  readonly issuer: string;
  readonly audience: string;
  readonly currentDate: Date;
  readonly clockTolerance: number;
  readonly requiredClaims: readonly string[];
}

export interface VerifiedJws {
  readonly payload: JWTPayload;
  readonly protectedHeader: Readonly<Record<string, unknown>>;
}

/** Verifies a compact JWS and its registered claims; throws jose's error classes on any failure. */
export type SignatureVerifier = (token: string, checks: SignatureChecks) => VerifiedJws | Promise<VerifiedJws>;

/**
 * The one place sessauth verifies a JWT without jose. HS256/384/512 tokens are verified
 * synchronously with node:crypto where it exists (hmac-jwt-verifier.ts); everything else, and
 * every runtime without node:crypto, goes through jose's `jwtVerify`.
 *
 * Why a second verifier: on every guarded request jose's generic JWS machinery cost more than
 * the HMAC itself; in process the guard on the memory store went from 18 µs to about 11 µs per
 * call (bench/README.md, "What the profiles showed"). What keeps the two equal: the
 * differential property test test/property/parsers/hmac-jwt-differential.test.ts runs both on
 * generated tokens and demands the same decision and the same error class for each, and
 * the token service gives one answer on both paths (a runtime without node:crypto included).
 *
 * One header rule both paths share: a `crit` header is refused. We never mint one, and jose
 * would accept the extensions it knows (`crit: ["b64"]`), so a token could mean one thing on
 * Node and another on a runtime where jose verifies.
 */
export function chooseSignatureVerifier(ring: KeyRing, algorithm: string, node: NodeCrypto | undefined = nodeCrypto()): SignatureVerifier {
  const hmac = ring.hmacKeys === null ? undefined : createHmacJwtVerifier(algorithm, ring.hmacKeys, node);
  if (hmac !== undefined) return hmac;
  return (token, checks) => {
    if (hasCrit(token)) throw new errors.JOSENotSupported('"crit" is not accepted');
    return verifyWithRing(token, ring, { ...checks, algorithms: [checks.algorithm], requiredClaims: [...checks.requiredClaims] });
  };
}

function hasCrit(token: string): boolean {
  try {
    return 'crit' in decodeProtectedHeader(token);
  } catch {
    // A header that does not decode is jose's to refuse, with its own error.
    return false;
  }
}
