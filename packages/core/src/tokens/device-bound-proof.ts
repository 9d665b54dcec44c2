import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import { publicProofKey } from './proof-key.js';

/**
 * The signature algorithms a DBSC proof may use (W3C DBSC draft, "DBSC Proof JWT Syntax": RS256,
 * ES256 or none). `none` exists there only for sessions without a key: we never accept it.
 */
export const DEVICE_BOUND_ALGORITHMS = ['ES256', 'RS256'] as const;

const MAX_PROOF_LENGTH = 8192;
const MAX_CLAIM_LENGTH = 512;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A proof whose signature held. */
export interface VerifiedDeviceBoundProof {
  /** The `jti` claim: the challenge the browser signed. */
  readonly challenge: string;
  /** The public key that verified it (registration: the proof's own; refresh: the session's). */
  readonly jwk: JWK;
  /** RFC 7638 SHA-256 thumbprint of that key, base64url. */
  readonly jkt: string;
}

/**
 * Verifies a `Secure-Session-Response` JWT (DBSC draft): `typ` dbsc+jwt, `alg` ES256 or RS256,
 * and a signature by `key` (a refresh: the key the session was bound to) or, at registration
 * (`key` undefined), by the public JWK the proof carries in its header (`jwk`; Chromium's older
 * builds put it in the payload as `key`, accepted too). The payload's `jti` is the challenge.
 * Claims are read from the verified payload by hand: the draft's own example carries `iat` as
 * a string, which a generic JWT claim check would refuse.
 */
export async function verifyDeviceBoundProof(proof: string, key: JWK | undefined): Promise<VerifiedDeviceBoundProof> {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw new DeviceBoundProofError('malformed');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw new DeviceBoundProofError('malformed');
  }
  if (header.typ !== 'dbsc+jwt') throw new DeviceBoundProofError('typ');
  const { alg } = header;
  if (alg !== 'ES256' && alg !== 'RS256') throw new DeviceBoundProofError('alg');
  if (header.crit !== undefined) throw new DeviceBoundProofError('crit');
  const candidate = key ?? header.jwk ?? unverifiedPayloadKey(proof);
  const publicJwk = publicProofKey(candidate, alg);
  if (typeof publicJwk === 'string') throw new DeviceBoundProofError(publicJwk);
  let payload: unknown;
  try {
    const verified = await compactVerify(proof, await importJWK(publicJwk, alg), { algorithms: [alg] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload));
  } catch {
    throw new DeviceBoundProofError('signature');
  }
  if (typeof payload !== 'object' || payload === null) throw new DeviceBoundProofError('malformed');
  const { jti } = payload as Record<string, unknown>;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_CLAIM_LENGTH) throw new DeviceBoundProofError('jti');
  return { challenge: jti, jwk: publicJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

/** Before the signature is checked, only to find which key to check it with (it must then verify under it). */
function unverifiedPayloadKey(proof: string): unknown {
  try {
    const json = atob(proof.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    const payload: unknown = JSON.parse(json);
    return typeof payload === 'object' && payload !== null
      ? ((payload as Record<string, unknown>).key ?? (payload as Record<string, unknown>).jwk)
      : undefined;
  } catch {
    return undefined;
  }
}
