import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { DPOP_ALGORITHMS, DpopProofError } from '../errors/dpop-error.js';
import { publicProofKey } from './proof-key.js';

/**
 * How far a proof's `iat` may be from our clock, each way (RFC 9449 s11.1: a short window, with
 * room for a phone's clock). A replayed proof is caught by its `jti` inside this window and by
 * its `iat` after it.
 */
export const DPOP_IAT_WINDOW_SECONDS = 60;
/** How long a proof's `jti` must be remembered: until no proof with it can pass the `iat` check. */
export const DPOP_JTI_LIFETIME_SECONDS = 2 * DPOP_IAT_WINDOW_SECONDS + 1;

// A proof is a small JWS; a longer one is refused before any parsing.
const MAX_PROOF_LENGTH = 8192;
const MAX_JTI_LENGTH = 256;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const ALLOWED: ReadonlySet<string> = new Set(DPOP_ALGORITHMS);

/** What the request says the proof must match. */
export interface DpopExpectation {
  /** The request's method, as received. */
  readonly method: string;
  /** The request's URI as we rebuilt it (scheme, host, path; the query is ignored). */
  readonly uri: string;
  readonly now: Date;
  /** The access token sent with it: the proof's `ath` must be its hash (RFC 9449 s4.3 step 11). */
  readonly accessToken?: string;
}

/** A proof that passed every check but the replay one (see endpoints/dpop-request.ts). */
export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's public key, base64url. */
  readonly jkt: string;
  readonly jti: string;
}

/**
 * Verifies one `DPoP` proof (RFC 9449 s4.3) with jose: `typ` dpop+jwt, an asymmetric `alg` of
 * ours, a public `jwk` (no private member, RSA of 2048 bits at least) whose signature holds, and
 * the claims `jti`, `htm`, `htu`, `iat` (and `ath` with an access token). Every refusal is a
 * `DpopProofError`. The `jti` is returned for the caller's replay record.
 */
export async function verifyDpopProof(proof: string, expected: DpopExpectation): Promise<VerifiedDpopProof> {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw new DpopProofError('malformed');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw new DpopProofError('malformed');
  }
  if (header.typ !== 'dpop+jwt') throw new DpopProofError('typ');
  const { alg, jwk } = header;
  if (typeof alg !== 'string' || !ALLOWED.has(alg)) throw new DpopProofError('alg');
  const publicJwk = publicProofKey(jwk, alg);
  if (typeof publicJwk === 'string') throw new DpopProofError(publicJwk);
  let payload: Record<string, unknown>;
  try {
    const key = await importJWK(publicJwk, alg);
    ({ payload } = await jwtVerify(proof, key, { typ: 'dpop+jwt', algorithms: [alg], currentDate: expected.now }));
  } catch {
    throw new DpopProofError('signature');
  }
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) throw new DpopProofError('jti');
  if (htm !== expected.method) throw new DpopProofError('htm');
  if (typeof htu !== 'string' || !sameUri(htu, expected.uri)) throw new DpopProofError('htu');
  if (typeof iat !== 'number' || Math.abs(expected.now.getTime() / 1000 - iat) > DPOP_IAT_WINDOW_SECONDS) throw new DpopProofError('iat');
  if (expected.accessToken !== undefined && (typeof ath !== 'string' || ath !== (await sha256Base64url(expected.accessToken)))) {
    throw new DpopProofError('ath');
  }
  return { jkt: await calculateJwkThumbprint(publicJwk, 'sha256'), jti };
}

/**
 * RFC 9449 s4.3 step 9: the proof's `htu` names this request's URI, the query and fragment
 * ignored. Both go through the WHATWG URL parser, so case of scheme and host, a default port
 * and dot segments compare as the same URI (RFC 3986 s6.2.2 and s6.2.3 normalisation).
 */
function sameUri(htu: string, ours: string): boolean {
  let claimed: URL;
  try {
    claimed = new URL(htu);
  } catch {
    return false;
  }
  if (claimed.protocol !== 'https:' && claimed.protocol !== 'http:') return false;
  const own = new URL(ours);
  return claimed.origin === own.origin && claimed.pathname === own.pathname && claimed.username === '' && claimed.password === '';
}

/** RFC 9449 s4.2's `ath`: base64url of the SHA-256 of the token's ASCII. */
async function sha256Base64url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A replay-record key of a proof: SHA-256 of its key's thumbprint and its `jti`, so any `jti` fits every store's key. */
export async function proofReplayKey(proof: VerifiedDpopProof): Promise<string> {
  return `dpop-jti:${await sha256Base64url(`${proof.jkt}.${proof.jti}`)}`;
}
