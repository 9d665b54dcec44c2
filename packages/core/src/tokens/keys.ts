import { CompactSign, compactVerify, importPKCS8, importSPKI, type KeyLike } from 'jose';
import { SettingsError } from '../errors/sessauth-error.js';
import type { ResolvedOptions } from '../options/options.js';
import { nodeCrypto } from '../runtime/node-crypto.js';

export interface SigningKeys {
  readonly signKey: CryptoKey | KeyLike;
  readonly verifyKey: CryptoKey | KeyLike;
}

const HMAC_HASH: Readonly<Record<string, string>> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

/**
 * Imports the configured keys once, at start-up. HMAC: the UTF-8 bytes of the secret as
 * one key for both signing and verifying (see `importHmacKey`). Asymmetric: the
 * PKCS#8 private key signs, the SPKI public key verifies, and one sign/verify probe proves
 * they are a pair (resolveOptions checks this too where node:crypto is available).
 * Failures throw a `SettingsError` naming the key setting; the message never quotes a key.
 */
export async function importSigningKeys(options: ResolvedOptions): Promise<SigningKeys> {
  const { algorithm, secretKey, verifyingKey } = options;
  const hash = HMAC_HASH[algorithm];
  if (hash !== undefined) {
    const key = await importHmacKey(secretKey, hash);
    return { signKey: key, verifyKey: key };
  }
  if (verifyingKey === undefined) throw new SettingsError('JWT_VERIFYING_KEY', `is required for ${algorithm}`);
  const signKey = await importOrFail('JWT_SECRET_KEY', () => importPKCS8(secretKey, algorithm));
  const verifyKey = await importOrFail('JWT_VERIFYING_KEY', () => importSPKI(verifyingKey, algorithm));
  try {
    const probe = await new CompactSign(new TextEncoder().encode('sessauth key probe')).setProtectedHeader({ alg: algorithm }).sign(signKey);
    await compactVerify(probe, verifyKey, { algorithms: [algorithm] });
  } catch {
    // Also reached when jose refuses the key itself (for example an RSA key under 2048 bits).
    throw new SettingsError('JWT_VERIFYING_KEY', `does not verify signatures made with JWT_SECRET_KEY under ${algorithm}`);
  }
  return { signKey, verifyKey };
}

async function importOrFail(setting: string, load: () => Promise<KeyLike>): Promise<KeyLike> {
  try {
    return await load();
  } catch {
    throw new SettingsError(setting, 'could not be imported as a PEM key for the configured JWT_ALGORITHM');
  }
}

/**
 * An HMAC secret imported once, never as raw bytes per call. Where node:crypto exists it is
 * a `KeyObject`: jose's Node build verifies with it directly, while a WebCrypto `CryptoKey`
 * is converted (`KeyObject.from`) and re-checked on every verification, which profiled as
 * the largest single cost of the guard. Elsewhere, a non-extractable `CryptoKey`.
 */
export async function importHmacKey(secret: string, hash: string): Promise<CryptoKey | KeyLike> {
  const bytes = new TextEncoder().encode(secret);
  const node = nodeCrypto();
  if (node !== undefined) return node.createSecretKey(bytes);
  return globalThis.crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash }, false, ['sign', 'verify']);
}
