import { SettingsError } from '../errors/sessauth-error.js';
import type { SigningAlgorithm } from './options.js';
import { pemLabel, privateKeyProblem, publicKeyProblem } from './pem-hints.js';
import { SETTING_NAMES } from './setting-names.js';

type KeySetting = 'secretKey' | 'verifyingKey';
const SECRET: KeySetting = 'secretKey';
const VERIFYING: KeySetting = 'verifyingKey';

function keyError(key: KeySetting, problem: string): SettingsError {
  return new SettingsError(SETTING_NAMES[key], problem, key);
}

/** Minimum HMAC key bytes: the hash output size (RFC 7518 section 3.2). */
const HMAC_MIN_BYTES: Readonly<Record<string, number>> = { HS256: 32, HS384: 48, HS512: 64 };

/** The node:crypto curve each ECDSA algorithm requires. */
const EC_CURVES: Readonly<Record<string, string>> = {
  ES256: 'prime256v1',
  ES384: 'secp384r1',
  ES512: 'secp521r1',
};

const MIN_RSA_BITS = 2048;

/** The slice of node:crypto used here, typed by structure (core compiles without Node types). */
interface KeyObject {
  readonly asymmetricKeyType?: string;
  readonly asymmetricKeyDetails?: { readonly modulusLength?: number; readonly namedCurve?: string };
  export(options: { type: 'spki'; format: 'der' }): Uint8Array;
}
interface NodeCrypto {
  createPrivateKey(pem: string): KeyObject;
  createPublicKey(key: string | KeyObject): KeyObject;
}

/**
 * node:crypto, loaded lazily so the core still bundles for Web-Fetch runtimes without it
 * (there `importSigningKeys` proves the pair with a sign/verify probe instead).
 */
function nodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
}

export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = [
  'HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512',
  'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA',
];

/**
 * Validates the key material for `algorithm` at start-up. Messages never quote a key.
 * Asymmetric keys must be PEM: PKCS#8 (`BEGIN PRIVATE KEY`) and SPKI (`BEGIN PUBLIC KEY`),
 * the forms jose imports; the verifying key must be the private key's own public half.
 */
export function checkSigningKey(algorithm: SigningAlgorithm, secretKey: string, verifyingKey: string | undefined): void {
  const minBytes = HMAC_MIN_BYTES[algorithm];
  if (minBytes !== undefined) {
    if (verifyingKey !== undefined) {
      throw keyError(VERIFYING, `is only for asymmetric algorithms; ${algorithm} uses JWT_SECRET_KEY alone`);
    }
    // A PEM here means JWT_ALGORITHM was forgotten; a public key as an HMAC secret is the
    // classic algorithm-confusion mistake, so refuse it outright.
    if (secretKey.includes('-----BEGIN')) {
      throw keyError(SECRET, `looks like a PEM key, but JWT_ALGORITHM is ${algorithm} (HMAC); set JWT_ALGORITHM`);
    }
    const publicKind = publicKeyMaterial(secretKey);
    if (publicKind !== null) {
      throw keyError(SECRET, `looks like ${publicKind}, not an HMAC secret; use a random secret of ${minBytes}+ bytes, or an asymmetric JWT_ALGORITHM with a PEM key`);
    }
    const bytes = new TextEncoder().encode(secretKey).length;
    if (bytes < minBytes) {
      throw keyError(SECRET, `must be at least ${minBytes} bytes (UTF-8) for ${algorithm}, got ${bytes}`);
    }
    return;
  }
  if (pemLabel(secretKey) !== 'PRIVATE KEY') throw keyError(SECRET, privateKeyProblem(secretKey, algorithm));
  if (verifyingKey === undefined) {
    throw keyError(VERIFYING, `is required for ${algorithm} (a PEM SPKI public key)`);
  }
  if (pemLabel(verifyingKey) !== 'PUBLIC KEY') throw keyError(VERIFYING, publicKeyProblem(verifyingKey));
  const crypto = nodeCrypto();
  if (crypto === undefined) return;
  const privateKey = load(SECRET, () => crypto.createPrivateKey(secretKey), () => privateKeyProblem(secretKey, algorithm));
  checkKeyFitsAlgorithm(SECRET, privateKey, algorithm);
  const publicKey = load(VERIFYING, () => crypto.createPublicKey(verifyingKey), () => publicKeyProblem(verifyingKey));
  checkKeyFitsAlgorithm(VERIFYING, publicKey, algorithm);
  const derived = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const given = publicKey.export({ type: 'spki', format: 'der' });
  if (!sameBytes(derived, given)) {
    throw keyError(VERIFYING, 'does not match the private key in JWT_SECRET_KEY');
  }
}

const SSH_KEY = /^\s*(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) /;

/** What key material (public or not) looks like when pasted as an HMAC secret, or null. */
function publicKeyMaterial(secret: string): string | null {
  if (SSH_KEY.test(secret)) return 'an OpenSSH public key';
  const trimmed = secret.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'object' && parsed !== null && ('kty' in parsed || 'keys' in parsed)) return 'a JWK';
    } catch {
      // Not JSON: an ordinary secret that starts with a brace.
    }
  }
  return null;
}

// createPublicKey would also accept a private key (and derive its public half), and jose
// only imports PKCS#8 and SPKI: the exact PEM label is checked before this.
function load(setting: KeySetting, read: () => KeyObject, problem: () => string): KeyObject {
  try {
    return read();
  } catch {
    throw keyError(setting, problem());
  }
}

function checkKeyFitsAlgorithm(setting: KeySetting, key: KeyObject, algorithm: SigningAlgorithm): void {
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  if (algorithm.startsWith('RS') || algorithm.startsWith('PS')) {
    if (type !== 'rsa') throw keyError(setting, `must be an RSA key for ${algorithm}, got ${type ?? 'unknown'}`);
    const bits = details.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) {
      throw keyError(setting, `RSA key must be at least ${MIN_RSA_BITS} bits for ${algorithm}, got ${bits}`);
    }
    return;
  }
  const curve = EC_CURVES[algorithm];
  if (curve !== undefined) {
    if (type !== 'ec' || details.namedCurve !== curve) {
      throw keyError(setting, `must be an EC key on curve ${curve} for ${algorithm}`);
    }
    return;
  }
  if (type !== 'ed25519') throw keyError(setting, `must be an Ed25519 key for ${algorithm}`);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
