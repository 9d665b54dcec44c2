import type { JWK } from 'jose';

/** Why a proof's own key was refused; each proof kind turns it into its own error class. */
export type ProofKeyProblem = 'jwk' | 'private_jwk' | 'weak_key';

const MIN_RSA_BITS = 2048;
// Every private member a JWK can carry (RFC 7518 s6): a proof naming one is a leaked key, or a trick.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
const KEY_TYPE: Readonly<Record<string, string>> = { ES256: 'EC', EdDSA: 'OKP', RS256: 'RSA', PS256: 'RSA' };

/**
 * The public key a proof carries (a DPoP proof's header `jwk`, RFC 9449 s4.2; a DBSC proof's, W3C
 * DBSC draft), checked for `alg`: of the algorithm's key type, with no private member, RSA of 2048
 * bits at least. Only its public members are kept, so nothing else the sender put in it is stored.
 */
export function publicProofKey(jwk: unknown, alg: string): JWK | ProofKeyProblem {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return 'jwk';
  const key = jwk as JWK;
  if (PRIVATE_MEMBERS.some((member) => member in key)) return 'private_jwk';
  if (key.kty !== KEY_TYPE[alg]) return 'jwk';
  if (key.kty === 'EC') {
    if (key.crv !== 'P-256' || typeof key.x !== 'string' || typeof key.y !== 'string') return 'jwk';
    return { kty: 'EC', crv: 'P-256', x: key.x, y: key.y };
  }
  if (key.kty === 'OKP') {
    if (typeof key.crv !== 'string' || typeof key.x !== 'string') return 'jwk';
    return { kty: 'OKP', crv: key.crv, x: key.x };
  }
  if (typeof key.n !== 'string' || typeof key.e !== 'string') return 'jwk';
  if (rsaModulusBits(key.n) < MIN_RSA_BITS) return 'weak_key';
  return { kty: 'RSA', n: key.n, e: key.e };
}

/** The bit length of a base64url RSA modulus; 0 for anything that is not one. */
function rsaModulusBits(n: string): number {
  if (n.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(n)) return 0;
  let bytes: string;
  try {
    bytes = atob(n.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return 0;
  }
  let start = 0;
  while (start < bytes.length && bytes.charCodeAt(start) === 0) start += 1;
  if (start === bytes.length) return 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes.charCodeAt(start)));
}
