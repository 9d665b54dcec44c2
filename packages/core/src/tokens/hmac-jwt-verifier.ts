import { errors, type JWTPayload } from 'jose';
import { nodeBuffer, type NodeCrypto, type NodeKeyObject } from '../runtime/node-crypto.js';

export interface HmacVerifyOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly currentDate: Date;
  readonly clockTolerance: number;
  readonly requiredClaims: readonly string[];
}

type ProtectedHeader = Readonly<Record<string, unknown>>;

export interface HmacVerifyResult {
  readonly payload: JWTPayload;
  readonly protectedHeader: ProtectedHeader;
}

export type HmacJwtVerifier = (token: string, options: HmacVerifyOptions) => HmacVerifyResult;

const NODE_HASH: Readonly<Record<string, string>> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
/** Distinct protected headers kept parsed. Ours are one per signing key; the bound only caps what others send. */
const HEADER_CACHE_LIMIT = 64;
// Not fatal and BOM-stripping, as jose decodes.
const utf8 = new TextDecoder();

/**
 * The guard's verification of our own HS256/384/512 tokens, synchronously with node:crypto.
 * It decides exactly as `jwtVerify` with the same options and key ring does (a property test
 * holds the two side by side on generated tokens), and throws jose's error classes so one
 * mapping turns either into the wire's codes. It is stricter in one place: a `crit` header
 * is refused (we never mint one). Profiled, jose's generic JWS machinery (flattened JWS
 * object, header merge, buffer concatenation, an async hop per layer) cost more than the
 * HMAC itself on every guarded request. Undefined where node:crypto is absent: jose verifies.
 */
export function createHmacJwtVerifier(
  algorithm: string,
  keysByKid: ReadonlyMap<string, unknown>,
  node: NodeCrypto | undefined,
): HmacJwtVerifier | undefined {
  const hash = NODE_HASH[algorithm];
  const buffer = nodeBuffer();
  if (hash === undefined || node === undefined || buffer === undefined) return undefined;
  const keys = [...keysByKid.values()] as NodeKeyObject[];
  const byKid = keysByKid as ReadonlyMap<string, NodeKeyObject>;
  const headers = new Map<string, ProtectedHeader>();

  const decodeJson = (segment: string): unknown => {
    try {
      return JSON.parse(utf8.decode(buffer.from(segment, 'base64url')));
    } catch {
      return undefined;
    }
  };

  const headerOf = (segment: string): ProtectedHeader => {
    const cached = headers.get(segment);
    if (cached !== undefined) return cached;
    const header = decodeJson(segment);
    if (!isJsonObject(header)) throw new errors.JWSInvalid('JWS Protected Header is invalid');
    if (headers.size >= HEADER_CACHE_LIMIT) headers.clear();
    Object.freeze(header);
    headers.set(segment, header);
    return header;
  };

  // The same contract as the key ring's lookup for jose: a kid picks its key or none; no kid tries every key.
  const candidates = (kid: unknown): readonly NodeKeyObject[] => {
    if (kid === undefined) return keys;
    const key = typeof kid === 'string' ? byKid.get(kid) : undefined;
    if (key === undefined) throw new errors.JWKSNoMatchingKey();
    return [key];
  };

  return (token, options) => {
    const firstDot = token.indexOf('.');
    const lastDot = token.lastIndexOf('.');
    if (firstDot <= 0 || lastDot === firstDot || token.indexOf('.', firstDot + 1) !== lastDot) throw new errors.JWSInvalid('Invalid Compact JWS');
    const header = headerOf(token.slice(0, firstDot));
    if ('crit' in header) throw new errors.JOSENotSupported('"crit" is not accepted');
    if (typeof header.alg !== 'string' || header.alg === '') throw new errors.JWSInvalid('JWS "alg" (Algorithm) Header Parameter missing or invalid');
    if (header.alg !== algorithm) throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
    const signingInput = token.slice(0, lastDot);
    const signature = buffer.from(token.slice(lastDot + 1), 'base64url');
    let signed = false;
    for (const key of candidates(header.kid)) {
      const mac = node.createHmac(hash, key).update(signingInput, 'utf8').digest();
      if (mac.length === signature.length && node.timingSafeEqual(mac, signature)) {
        signed = true;
        break;
      }
    }
    if (!signed) throw new errors.JWSSignatureVerificationFailed();
    const payload = decodeJson(token.slice(firstDot + 1, lastDot));
    if (!isJsonObject(payload)) throw new errors.JWTInvalid('JWT Claims Set must be a top-level JSON object');
    checkClaims(payload, options);
    return { payload, protectedHeader: header };
  };
}

/** jose's claim checks for these options, in its order and with its error classes. */
function checkClaims(payload: JWTPayload, options: HmacVerifyOptions): void {
  for (const claim of [...options.requiredClaims, 'aud', 'iss']) {
    if (!(claim in payload)) throw new errors.JWTClaimValidationFailed(`missing required "${claim}" claim`, payload, claim, 'missing');
  }
  if (payload.iss !== options.issuer) throw new errors.JWTClaimValidationFailed('unexpected "iss" claim value', payload, 'iss', 'check_failed');
  const { aud } = payload;
  if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))) {
    throw new errors.JWTClaimValidationFailed('unexpected "aud" claim value', payload, 'aud', 'check_failed');
  }
  const now = Math.floor(options.currentDate.getTime() / 1000);
  const tolerance = options.clockTolerance;
  if (payload.iat !== undefined && typeof payload.iat !== 'number') {
    throw new errors.JWTClaimValidationFailed('"iat" claim must be a number', payload, 'iat', 'invalid');
  }
  if (payload.nbf !== undefined) {
    if (typeof payload.nbf !== 'number') throw new errors.JWTClaimValidationFailed('"nbf" claim must be a number', payload, 'nbf', 'invalid');
    if (payload.nbf > now + tolerance)
      throw new errors.JWTClaimValidationFailed('"nbf" claim timestamp check failed', payload, 'nbf', 'check_failed');
  }
  if (payload.exp !== undefined) {
    if (typeof payload.exp !== 'number') throw new errors.JWTClaimValidationFailed('"exp" claim must be a number', payload, 'exp', 'invalid');
    if (payload.exp <= now - tolerance) throw new errors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed');
  }
}

/** JSON.parse yields plain objects, arrays or primitives: a plain object is what jose's `isObject` accepts. */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
