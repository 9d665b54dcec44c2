import { nodeCrypto, type NodeCrypto } from '../runtime/node-crypto.js';

const encoder = new TextEncoder();

/** Digests kept per process. A stamp maps to one digest forever, so the bound only caps memory. */
const CACHE_LIMIT = 10_000;

/**
 * The session keeps an HMAC of the user's security stamp, never the stamp itself:
 * a leaked session row then says nothing about the password hash it may derive from.
 * The HMAC key is derived from the signing secret, so rotating the secret (which
 * already invalidates every token) also changes every digest.
 *
 * The guard needs this digest on every request. It is a pure function of the stamp
 * string, so it is cached: a new stamp (a password change) is a new key, and nothing
 * about a session or a revocation is cached here. A miss is computed synchronously
 * with node:crypto where it exists: WebCrypto would send every request on a second
 * trip through the thread pool, after the token's own verification.
 */
export async function createStampDigest(secretKey: string): Promise<(stamp: string) => Promise<string>> {
  const material = await crypto.subtle.digest('SHA-256', encoder.encode(`sessauth/security-stamp\u0000${secretKey}`));
  const compute = hmacOf(new Uint8Array(material), nodeCrypto()) ?? (await webCryptoHmac(material));
  const cache = new Map<string, string>();
  return async (stamp) => {
    const cached = cache.get(stamp);
    if (cached !== undefined) return cached;
    const digest = await compute(stamp);
    // Oldest first out: a Map iterates in insertion order.
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(stamp, digest);
    return digest;
  };
}

function hmacOf(key: Uint8Array, node: NodeCrypto | undefined): ((stamp: string) => string) | undefined {
  if (node === undefined) return undefined;
  return (stamp) => node.createHmac('sha256', key).update(stamp, 'utf8').digest('base64url');
}

async function webCryptoHmac(material: ArrayBuffer): Promise<(stamp: string) => Promise<string>> {
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (stamp) => toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(stamp))));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
