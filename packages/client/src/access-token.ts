/** An access token as this client sees it: the JWT plus what it needs from its payload. */
export interface AccessToken {
  readonly raw: string;
  /** The session id (`sid`): tells "this device" apart in the session list. */
  readonly sid: string | null;
  /** When it expires, on this machine's clock (epoch ms). */
  readonly expiresAt: number;
  /** Its full lifetime in ms (`exp - iat`), for the refresh-ahead margin. */
  readonly lifetimeMs: number;
  /** The DPoP key it is bound to (`cnf.jkt`, RFC 9449 s6), or null for a bearer token. */
  readonly jkt: string | null;
}

/**
 * Reads a JWT access token received at `receivedAt` (local epoch ms). The expiry
 * is `receivedAt + (exp - iat)`, not `exp` itself, so a client whose clock is off
 * still refreshes on time. The signature is the server's business, not ours.
 */
export function readAccessToken(raw: string, receivedAt: number): AccessToken {
  const payload = decodePayload(raw);
  const exp = numberClaim(payload, 'exp');
  if (exp === null) throw new TypeError('access token without a numeric exp');
  const iat = numberClaim(payload, 'iat');
  const lifetimeMs = iat !== null && exp > iat ? (exp - iat) * 1000 : Math.max(0, exp * 1000 - receivedAt);
  const sid = typeof payload.sid === 'string' ? payload.sid : null;
  return { raw, sid, expiresAt: receivedAt + lifetimeMs, lifetimeMs, jkt: jktOf(payload) };
}

/** The `cnf.jkt` of a JWT (a body-transport refresh token), or null when it has none or is no JWT. */
export function boundKeyOf(raw: string): string | null {
  try {
    return jktOf(decodePayload(raw));
  } catch {
    return null;
  }
}

function jktOf(payload: Record<string, unknown>): string | null {
  const cnf = payload.cnf;
  if (typeof cnf !== 'object' || cnf === null) return null;
  const { jkt } = cnf as { jkt?: unknown };
  return typeof jkt === 'string' ? jkt : null;
}

/** A token another tab read (its clock is ours): trust its expiry, re-read the rest. */
export function adoptAccessToken(raw: string, expiresAt: number, now: number): AccessToken {
  const read = readAccessToken(raw, now);
  return { ...read, expiresAt: Math.min(expiresAt, now + read.lifetimeMs) };
}

/**
 * True while the token has more than the refresh-ahead margin left. The margin is
 * `aheadMs`, capped at a quarter of the lifetime (a 2-second token refreshes at
 * 1.5 s, a 5-minute one 30 s early).
 */
export function isFresh(token: AccessToken, now: number, aheadMs: number): boolean {
  return token.expiresAt - now > Math.min(aheadMs, token.lifetimeMs / 4);
}

/** When a timer should refresh `token` (epoch ms). */
export function refreshDueAt(token: AccessToken, aheadMs: number): number {
  return token.expiresAt - Math.min(aheadMs, token.lifetimeMs / 4);
}

function decodePayload(raw: string): Record<string, unknown> {
  const part = raw.split('.')[1];
  if (part === undefined || part === '') throw new TypeError('access token is not a JWT');
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (payload === null || typeof payload !== 'object') throw new TypeError('access token payload is not an object');
  return payload as Record<string, unknown>;
}

function numberClaim(payload: Record<string, unknown>, name: string): number | null {
  const value = payload[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
