/** Key pairs as PEM (PKCS#8 + SPKI), generated with WebCrypto so the tests need no Node types. */
export type KeySpec = 'rsa1024' | 'rsa2048' | 'p256' | 'p384' | 'p521' | 'ed25519';

export interface PemPair {
  privateKey: string;
  publicKey: string;
}

const PARAMS: Record<KeySpec, RsaHashedKeyGenParams | EcKeyGenParams | Algorithm> = {
  rsa1024: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  rsa2048: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  p256: { name: 'ECDSA', namedCurve: 'P-256' },
  p384: { name: 'ECDSA', namedCurve: 'P-384' },
  p521: { name: 'ECDSA', namedCurve: 'P-521' },
  ed25519: { name: 'Ed25519' },
};

export async function pemPair(spec: KeySpec): Promise<PemPair> {
  const pair = (await crypto.subtle.generateKey(PARAMS[spec], true, ['sign', 'verify'])) as CryptoKeyPair;
  return {
    privateKey: toPem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', pair.privateKey)),
    publicKey: toPem('PUBLIC KEY', await crypto.subtle.exportKey('spki', pair.publicKey)),
  };
}

function toPem(label: string, der: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(der)) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
