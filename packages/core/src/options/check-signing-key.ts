import { SettingsError } from '../errors/sessauth-error.js';
import type { SigningAlgorithm } from './options.js';
import { pemLabel, privateKeyProblem, publicKeyProblem } from './pem-hints.js';
import { SETTING_NAMES } from './setting-names.js';
import { nodeCrypto, type NodeCrypto, type NodeKeyObject as KeyObject } from '../runtime/node-crypto.js';

type KeySetting = 'secretKey' | 'verifyingKey' | 'previousSecretKeys' | 'previousVerifyingKeys' | 'securityStampKey';
const SECRET: KeySetting = 'secretKey';
const VERIFYING: KeySetting = 'verifyingKey';

/** `entry` (1-based) names the item of a list setting, so the message says which one is wrong without quoting it. */
function keyError(key: KeySetting, problem: string, entry?: number): SettingsError {
  return new SettingsError(SETTING_NAMES[key], entry === undefined ? problem : `entry ${entry}: ${problem}`, key);
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
    checkHmacSecret(SECRET, algorithm, minBytes, secretKey);
    return;
  }
  if (pemLabel(secretKey) !== 'PRIVATE KEY') throw keyError(SECRET, privateKeyProblem(secretKey, algorithm));
  if (verifyingKey === undefined) {
    throw keyError(VERIFYING, `is required for ${algorithm} (a PEM SPKI public key)`);
  }
  if (pemLabel(verifyingKey) !== 'PUBLIC KEY') throw keyError(VERIFYING, publicKeyProblem(verifyingKey));
  const crypto = nodeCrypto();
  if (crypto === undefined) return;
  const privateKey = load(
    SECRET,
    () => crypto.createPrivateKey(secretKey),
    () => privateKeyProblem(secretKey, algorithm),
  );
  checkKeyFitsAlgorithm(SECRET, privateKey, algorithm);
  const publicKey = load(
    VERIFYING,
    () => crypto.createPublicKey(verifyingKey),
    () => publicKeyProblem(verifyingKey),
  );
  checkKeyFitsAlgorithm(VERIFYING, publicKey, algorithm);
  const derived = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const given = publicKey.export({ type: 'spki', format: 'der' });
  if (!sameBytes(derived, given)) {
    throw keyError(VERIFYING, 'does not match the private key in JWT_SECRET_KEY');
  }
}

function checkHmacSecret(setting: KeySetting, algorithm: SigningAlgorithm, minBytes: number, secret: string, entry?: number): void {
  // A PEM here means JWT_ALGORITHM was forgotten; a public key as an HMAC secret is the
  // classic algorithm-confusion mistake, so refuse it outright.
  if (secret.includes('-----BEGIN')) {
    throw keyError(setting, `looks like a PEM key, but JWT_ALGORITHM is ${algorithm} (HMAC); set JWT_ALGORITHM`, entry);
  }
  const publicKind = publicKeyMaterial(secret);
  if (publicKind !== null) {
    throw keyError(
      setting,
      `looks like ${publicKind}, not an HMAC secret; use a random secret of ${minBytes}+ bytes, or an asymmetric JWT_ALGORITHM with a PEM key`,
      entry,
    );
  }
  const bytes = new TextEncoder().encode(secret).length;
  if (bytes < minBytes) {
    const split = setting === 'previousSecretKeys' ? ' (in the environment, entries are comma-separated)' : '';
    throw keyError(setting, `must be at least ${minBytes} bytes (UTF-8) for ${algorithm}, got ${bytes}${split}; ${makeSecretHint(minBytes)}`, entry);
  }
}

/**
 * Validates the keys that still verify after a rotation, with the same checks as the
 * current ones: HMAC algorithms take previous secrets only, asymmetric ones previous PEM
 * public keys only (a retired private key has no business in the configuration). A key
 * equal to the current one, or listed twice, is refused: it is a copy-paste slip, and two
 * equal keys would publish one kid twice.
 */
export function checkPreviousKeys(
  algorithm: SigningAlgorithm,
  current: { readonly secretKey: string; readonly verifyingKey: string | undefined },
  previousSecretKeys: readonly string[],
  previousVerifyingKeys: readonly string[],
): void {
  const minBytes = HMAC_MIN_BYTES[algorithm];
  if (minBytes !== undefined) {
    if (previousVerifyingKeys.length > 0) {
      throw keyError('previousVerifyingKeys', `is only for asymmetric algorithms; ${algorithm} lists earlier secrets in JWT_PREVIOUS_SECRET_KEYS`);
    }
    previousSecretKeys.forEach((secret, i) => {
      checkHmacSecret('previousSecretKeys', algorithm, minBytes, secret, i + 1);
      if (secret === current.secretKey) throw keyError('previousSecretKeys', 'is the current JWT_SECRET_KEY; list only earlier keys', i + 1);
      if (previousSecretKeys.indexOf(secret) !== i) throw keyError('previousSecretKeys', 'repeats an earlier entry', i + 1);
    });
    return;
  }
  if (previousSecretKeys.length > 0) {
    throw keyError(
      'previousSecretKeys',
      `is only for HMAC algorithms; for ${algorithm} list the earlier PEM public keys in JWT_PREVIOUS_VERIFYING_KEYS`,
    );
  }
  const crypto = nodeCrypto();
  const currentDer = current.verifyingKey === undefined || crypto === undefined ? undefined : spkiOf(crypto, current.verifyingKey);
  const seen: Uint8Array[] = [];
  previousVerifyingKeys.forEach((pem, i) => {
    const entry = i + 1;
    if (pemLabel(pem) !== 'PUBLIC KEY') throw keyError('previousVerifyingKeys', publicKeyProblem(pem), entry);
    if (crypto === undefined) return;
    let key: KeyObject;
    try {
      key = crypto.createPublicKey(pem);
    } catch {
      throw keyError('previousVerifyingKeys', publicKeyProblem(pem), entry);
    }
    checkKeyFitsAlgorithm('previousVerifyingKeys', key, algorithm, entry);
    const der = key.export({ type: 'spki', format: 'der' });
    if (currentDer !== undefined && sameBytes(currentDer, der))
      throw keyError('previousVerifyingKeys', 'is the current JWT_VERIFYING_KEY; list only earlier keys', entry);
    if (seen.some((other) => sameBytes(other, der))) throw keyError('previousVerifyingKeys', 'repeats an earlier entry', entry);
    seen.push(der);
  });
}

/**
 * The security-stamp HMAC key, when set apart from JWT_SECRET_KEY: at least 32 bytes, and
 * never public key material (it may be a retired PEM private key: the key sessions were made under).
 */
export function checkSecurityStampKey(key: string): void {
  if (pemLabel(key)?.includes('PUBLIC KEY') === true || publicKeyMaterial(key) !== null) {
    throw keyError('securityStampKey', 'looks like public key material; use a secret (the JWT_SECRET_KEY your sessions were created under)');
  }
  const bytes = new TextEncoder().encode(key).length;
  if (bytes < 32) throw keyError('securityStampKey', `must be at least 32 bytes (UTF-8), got ${bytes}; ${makeSecretHint(32)}`);
}

/** How to make a random secret of `bytes` bytes: a command any Node install runs, so the message ends in a fix. */
export function makeSecretHint(bytes: number): string {
  return `make one with: node -e "console.log(require('crypto').randomBytes(${bytes}).toString('base64url'))"`;
}

function spkiOf(crypto: NodeCrypto, pem: string): Uint8Array {
  return crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' });
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

function checkKeyFitsAlgorithm(setting: KeySetting, key: KeyObject, algorithm: SigningAlgorithm, entry?: number): void {
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  if (algorithm.startsWith('RS') || algorithm.startsWith('PS')) {
    if (type !== 'rsa') throw keyError(setting, `must be an RSA key for ${algorithm}, got ${type ?? 'unknown'}`, entry);
    const bits = details.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) {
      throw keyError(setting, `RSA key must be at least ${MIN_RSA_BITS} bits for ${algorithm}, got ${bits}`, entry);
    }
    return;
  }
  const curve = EC_CURVES[algorithm];
  if (curve !== undefined) {
    if (type !== 'ec' || details.namedCurve !== curve) {
      throw keyError(setting, `must be an EC key on curve ${curve} for ${algorithm}`, entry);
    }
    return;
  }
  if (type !== 'ed25519') throw keyError(setting, `must be an Ed25519 key for ${algorithm}`, entry);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
