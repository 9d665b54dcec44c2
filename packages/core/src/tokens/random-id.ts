/**
 * `bytes` random bytes from the platform CSPRNG (`globalThis.crypto`), as unpadded
 * base64url. The default 32 bytes (256 bits) gives 43 characters: session ids, jtis.
 */
export function randomId(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024) throw new RangeError('randomId: bytes must be an integer in 1..1024');
  const buffer = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let binary = '';
  for (const byte of buffer) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
