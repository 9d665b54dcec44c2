const encoder = new TextEncoder();

/**
 * The session keeps an HMAC of the user's security stamp, never the stamp itself:
 * a leaked session row then says nothing about the password hash it may derive from.
 * The HMAC key is derived from the signing secret, so rotating the secret (which
 * already invalidates every token) also changes every digest.
 */
export async function createStampDigest(secretKey: string): Promise<(stamp: string) => Promise<string>> {
  const material = await crypto.subtle.digest('SHA-256', encoder.encode(`sessauth/security-stamp\u0000${secretKey}`));
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (stamp) => {
    const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(stamp));
    return toBase64Url(new Uint8Array(mac));
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
