import type { JWK } from 'jose';
import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { boundCookie, boundCookieAttributes, boundCookieName, usesRefreshCookie } from '../http/auth-cookies.js';
import { headerValues, soleValue } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { parseStructuredString, structuredString } from '../http/structured-string.js';
import { countHit } from '../rate-limit/throttle.js';
import type { SessionRecord } from '../store/store-port.js';
import {
  CHALLENGE_LIFETIME_SECONDS,
  type ChallengePurpose,
  mintBoundCookieValue,
  mintChallenge,
  openBoundCookieValue,
  openChallenge,
} from '../tokens/device-bound-seal.js';
import { DEVICE_BOUND_ALGORITHMS } from '../tokens/device-bound-proof.js';
import type { Engine } from './engine.js';

/**
 * The server side of W3C Device Bound Session Credentials (DBSC, webappsec-dbsc draft of
 * 2026-02-17) mapped onto our session: the session id is the DBSC session identifier, the
 * browser's public key goes on the session row, and the bound cookie is a short cookie beside the
 * refresh cookie that only a proof by that key renews. See docs/device-bound-cookies.md.
 */
export function deviceBoundOn<U>(engine: Engine<U>): boolean {
  return engine.options.deviceBoundCookies && usesRefreshCookie(engine.options) && engine.store.bindDeviceKey !== undefined;
}

const REGISTRATION_PATH = '/device-bound/registration';
const REFRESH_PATH = '/device-bound/refresh';
export { REFRESH_PATH as DEVICE_BOUND_REFRESH_PATH, REGISTRATION_PATH as DEVICE_BOUND_REGISTRATION_PATH };

/**
 * `Secure-Session-Registration` for a session not bound yet (login, and the refresh of a session
 * whose browser has not registered): the algorithms we verify, our registration path, and a
 * challenge sealed to this session. Nothing when DBSC is off or the session is bound.
 */
export async function registrationHeaders<U>(engine: Engine<U>, session: SessionRecord): Promise<Record<string, string>> {
  if (!deviceBoundOn(engine) || (session.deviceBoundKey ?? null) !== null) return {};
  const challenge = await mintChallenge(engine.options.securityStampKey, 'registration', session.id, engine.clock.now());
  const path = `${engine.options.prefix}${REGISTRATION_PATH}/`;
  return {
    'secure-session-registration': `(${DEVICE_BOUND_ALGORITHMS.join(' ')});path=${structuredString(path)};challenge=${structuredString(challenge)}`,
  };
}

/** `Secure-Session-Challenge: "<challenge>";id="<session id>"`: the challenge the browser signs at its next refresh. */
export async function challengeHeaders<U>(engine: Engine<U>, sessionId: string): Promise<Record<string, string>> {
  const challenge = await mintChallenge(engine.options.securityStampKey, 'refresh', sessionId, engine.clock.now());
  return { 'secure-session-challenge': `${structuredString(challenge)};id=${structuredString(sessionId)}` };
}

/** A fresh bound cookie for the session, living as long as an access token. */
export async function issueBoundCookie<U>(engine: Engine<U>, sessionId: string): Promise<string> {
  const lifetime = engine.options.accessTokenExpireSeconds;
  const expiresAt = new Date(engine.clock.now().getTime() + lifetime * 1000);
  return boundCookie(engine.options, await mintBoundCookieValue(engine.options.securityStampKey, sessionId, expiresAt), lifetime);
}

/** The session the request's (sole, valid, unexpired) bound cookie vouches for, or null. */
export async function boundCookieSession<U>(engine: Engine<U>, cookies: Map<string, string[]>): Promise<string | null> {
  const value = soleValue(cookies.get(boundCookieName(engine.options)));
  if (value === undefined || value === '') return null;
  return openBoundCookieValue(engine.options.securityStampKey, value, engine.clock.now());
}

/** The DBSC session config (the draft's "JSON session instructions") of one of our sessions. */
export function sessionInstructions<U>(engine: Engine<U>, sessionId: string): Record<string, unknown> {
  return {
    session_identifier: sessionId,
    refresh_url: `${engine.options.prefix}${REFRESH_PATH}/`,
    // Origin-scoped; the bound cookie is only ever sent under the refresh cookie's Path, so
    // only requests there wait for a DBSC refresh.
    scope: { include_site: false },
    credentials: [{ type: 'cookie', name: boundCookieName(engine.options), attributes: boundCookieAttributes(engine.options) }],
  };
}

/** The request's one `Secure-Session-Response` JWT, or undefined when it has none. Two, or not a structured string: refused. */
export function sessionResponseOf(request: SessauthRequest): string | undefined {
  const values = headerValues(request.headers, 'secure-session-response');
  if (values === undefined) return undefined;
  const proof = values.length === 1 ? parseStructuredString(values[0]!) : undefined;
  if (proof === undefined) throw new DeviceBoundProofError('malformed');
  return proof;
}

/** The request's one `Sec-Secure-Session-Id` (a structured string), or a 400. */
export function sessionIdOf(request: SessauthRequest): string {
  const values = headerValues(request.headers, 'sec-secure-session-id');
  const id = values?.length === 1 ? parseStructuredString(values[0]!) : undefined;
  if (id === undefined || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new SessauthError('invalid_request');
  return id;
}

/**
 * A challenge we sealed for `purpose`, unspent and fresh: its session id. `null` when it is
 * stale, spent or not ours (the refresh endpoint answers that with a new challenge). Spending
 * it is one atomic count in the shared rate-limit store, so a replay on any instance is seen.
 */
export async function spendChallenge<U>(engine: Engine<U>, purpose: ChallengePurpose, challenge: string): Promise<string | null> {
  const now = engine.clock.now();
  const opened = await openChallenge(engine.options.securityStampKey, purpose, challenge, now);
  if (opened === null || opened.stale) return null;
  const rate = { limit: 1, windowSec: CHALLENGE_LIFETIME_SECONDS[purpose] + 10 };
  const { count } = await countHit(engine.rateLimitStore, 'device_bound_challenge', `dbsc:${opened.nonce}`, rate, now, engine.logger);
  return count > 1 ? null : opened.sessionId;
}

/** The stored key of a bound session, parsed; null when the session is not bound (or its key unreadable). */
export function storedKeyOf(session: SessionRecord): JWK | null {
  if (session.deviceBoundKey === undefined || session.deviceBoundKey === null) return null;
  try {
    const key: unknown = JSON.parse(session.deviceBoundKey);
    return typeof key === 'object' && key !== null ? (key as JWK) : null;
  } catch {
    return null;
  }
}
