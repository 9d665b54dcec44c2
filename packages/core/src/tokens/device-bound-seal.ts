import { randomId } from './random-id.js';

/**
 * The server's own short-lived values of a device-bound session (DBSC), stateless and sealed by
 * an HMAC keyed from the security-stamp key, so any instance can check what another issued:
 *
 * - a challenge, `<session id>.<issued at>.<nonce>.<mac>`, for one purpose (`registration` at
 *   login, `refresh` afterwards); the browser signs it as its proof's `jti`; the caller records
 *   its nonce as spent (single use) in the shared rate-limit store;
 * - the bound cookie's value, `<session id>.<expires at>.<mac>`: minted only after a proof by the
 *   session's key, it is what a bound session's ordinary refresh needs.
 */
export type ChallengePurpose = 'registration' | 'refresh';

/** How long a challenge can be answered: the browser registers right after login and signs a refresh challenge at once. */
export const CHALLENGE_LIFETIME_SECONDS: Readonly<Record<ChallengePurpose, number>> = { registration: 300, refresh: 120 };

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function macKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle
      .digest('SHA-256', encoder.encode(`sessauth/device-bound\u0000${secret}`))
      .then((material) => crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
    keys.set(secret, key);
  }
  return key;
}

async function mac(secret: string, text: string): Promise<string> {
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await macKey(secret), encoder.encode(text)));
  let binary = '';
  for (const byte of signature) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function macMatches(secret: string, text: string, presented: string): Promise<boolean> {
  const expected = await mac(secret, text);
  if (expected.length !== presented.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i += 1) diff |= expected.charCodeAt(i) ^ presented.charCodeAt(i);
  return diff === 0;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const SECONDS = /^[0-9]{1,12}$/;

export async function mintChallenge(secret: string, purpose: ChallengePurpose, sessionId: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const nonce = randomId(18);
  return `${sessionId}.${issuedAt}.${nonce}.${await mac(secret, `challenge\u0000${purpose}\u0000${sessionId}\u0000${issuedAt}\u0000${nonce}`)}`;
}

/** A challenge we issued for `purpose`: its session and nonce; `stale` past its lifetime; null when not ours. */
export async function openChallenge(
  secret: string,
  purpose: ChallengePurpose,
  challenge: string,
  now: Date,
): Promise<{ readonly sessionId: string; readonly nonce: string; readonly stale: boolean } | null> {
  const parts = challenge.split('.');
  if (parts.length !== 4) return null;
  const [sessionId, issued, nonce, seal] = parts as [string, string, string, string];
  if (!ID.test(sessionId) || !SECONDS.test(issued) || !ID.test(nonce) || !ID.test(seal)) return null;
  if (!(await macMatches(secret, `challenge\u0000${purpose}\u0000${sessionId}\u0000${issued}\u0000${nonce}`, seal))) return null;
  const age = now.getTime() / 1000 - Number(issued);
  return { sessionId, nonce, stale: age > CHALLENGE_LIFETIME_SECONDS[purpose] || age < -5 };
}

export async function mintBoundCookieValue(secret: string, sessionId: string, expiresAt: Date): Promise<string> {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${sessionId}.${expires}.${await mac(secret, `cookie\u0000${sessionId}\u0000${expires}`)}`;
}

/** The session a bound cookie vouches for, or null (not ours, or expired: a browser may keep a cookie past Max-Age). */
export async function openBoundCookieValue(secret: string, value: string, now: Date): Promise<string | null> {
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const [sessionId, expires, seal] = parts as [string, string, string];
  if (!ID.test(sessionId) || !SECONDS.test(expires) || !ID.test(seal)) return null;
  if (!(await macMatches(secret, `cookie\u0000${sessionId}\u0000${expires}`, seal))) return null;
  return Number(expires) * 1000 > now.getTime() ? sessionId : null;
}
