const encoder = new TextEncoder();

/**
 * The form of a username the per-account budget counts under: trimmed, NFKC, lower-cased
 * (`" Alice "`, `"ALICE"` and the full-width `"ａｌｉｃｅ"` are one account), so changing
 * the case or the Unicode form of a name does not buy a fresh budget.
 */
export function normaliseUsername(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase();
}

// One HMAC key per secret; the secret itself is not kept as a map key.
const keys = new WeakMap<object, Promise<CryptoKey>>();

/**
 * The per-account counter's key: an HMAC-SHA-256 of the normalised username under a key
 * derived from `secret` (JWT_SECURITY_STAMP_KEY, else JWT_SECRET_KEY), in base64url. Keyed so
 * that a counter store's contents cannot be matched against a list of likely usernames.
 * `owner` is the object the derived key is cached on (the resolved options).
 */
export function accountRateKey(owner: object, secret: string, username: string): Promise<string> {
  return keyedDigest(owner, secret, normaliseUsername(username));
}

/**
 * The per-account counter's key for the user the login's lookup resolved: the same keyed
 * hash over the user id, marked apart from any username. A host whose lookup folds spellings
 * together (an accent-insensitive SQL collation finds `álice` for `alice`) then counts every
 * spelling under the one account it reaches.
 */
export function resolvedAccountRateKey(owner: object, secret: string, userId: string): Promise<string> {
  return keyedDigest(owner, secret, `\u0000user-id\u0000${userId}`).then((digest) => `id.${digest}`);
}

/**
 * The keyed digest used for values that must not be readable in a store or a log (a
 * username, a user id): HMAC-SHA-256 under a key derived from `secret`, base64url.
 */
export async function keyedDigest(owner: object, secret: string, value: string): Promise<string> {
  let key = keys.get(owner);
  if (key === undefined) {
    key = deriveKey(secret);
    keys.set(owner, key);
  }
  const mac = await crypto.subtle.sign('HMAC', await key, encoder.encode(value));
  return toBase64Url(new Uint8Array(mac));
}

async function deriveKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest('SHA-256', encoder.encode(`sessauth/login-account\u0000${secret}`));
  return crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
