import { importPKCS8, importSPKI, type KeyLike } from 'jose';
import type { ResolvedOptions } from '../options/options.js';

export interface SigningKeys {
  readonly signKey: CryptoKey | KeyLike;
  readonly verifyKey: CryptoKey | KeyLike;
}

const HMAC_HASH: Readonly<Record<string, string>> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

/**
 * Imports the configured keys once, at start-up. HMAC: the UTF-8 bytes of the secret as
 * one non-extractable `CryptoKey` used for both signing and verifying (jose verifies
 * about 1.7x faster with an imported key than with raw bytes on every call).
 * Asymmetric: the PKCS#8 private key signs, the SPKI public key verifies. The options
 * were validated by `resolveOptions`, so a failure here is a programmer error.
 */
export async function importSigningKeys(options: ResolvedOptions): Promise<SigningKeys> {
  const { algorithm, secretKey, verifyingKey } = options;
  const hash = HMAC_HASH[algorithm];
  if (hash !== undefined) {
    const key = await globalThis.crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secretKey),
      { name: 'HMAC', hash },
      false,
      ['sign', 'verify'],
    );
    return { signKey: key, verifyKey: key };
  }
  if (verifyingKey === undefined) throw new Error(`${algorithm} needs a verifying key (resolveOptions checks this)`);
  const [signKey, verifyKey] = await Promise.all([
    importPKCS8(secretKey, algorithm),
    importSPKI(verifyingKey, algorithm),
  ]);
  return { signKey, verifyKey };
}
