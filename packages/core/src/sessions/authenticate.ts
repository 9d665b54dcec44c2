import type { Engine } from '../endpoints/engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import type { AuthContext, AuthenticateInput } from '../engine/sessauth.js';
import { constantTimeEqual } from '../text/constant-time-equal.js';
import { isActive, isIdle } from './session-state.js';

const BEARER = /^Bearer ([A-Za-z0-9_.~+/=-]+)$/;

/**
 * The guard of every protected request: one token verification and one store read.
 * Nothing is cached across requests, so a revocation is seen at once by every
 * instance. The only write is the throttled `last_activity_at` touch, sent without
 * waiting so it can neither slow nor fail the request.
 */
export async function authenticate<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  const token = bearerToken(input.authorization);
  const claims = await engine.tokens.verify(token, 'access');
  const session = await engine.store.findSession(claims.sid);
  if (session === null) throw new SessauthError('session_not_found');
  if (session.userId !== claims.sub) throw new SessauthError('invalid_token');
  const now = engine.clock.now();
  // An idle session is over here without a write (the guard stays one read); the next
  // refresh revokes it in the store's compare-and-swap.
  if (!isActive(session, now) || isIdle(session, now, engine.options.sessionIdleSeconds)) throw new SessauthError('session_expired');
  const user = await engine.users.findById(claims.sub);
  if (user === null) throw new SessauthError('invalid_user');
  if (!constantTimeEqual(await engine.stampDigest(engine.users.securityStamp(user)), session.securityStamp)) {
    throw new SessauthError('session_expired');
  }
  touchIfDue(engine, session.id, session.lastActivityAt, now);
  return { user, session, claims: claims.payload };
}

/**
 * Exactly one `Authorization: Bearer <token>`. Missing (or blank): 401. A second header
 * fails closed with 401, and so does a comma: a token never holds one, and a Fetch
 * runtime joins repeated headers with ", ", so `Bearer x,` must mean the same in every
 * adapter. Any other shape is a malformed request: 400.
 */
function bearerToken(values: readonly string[] | undefined): string {
  const value = values?.length === 1 ? values[0]! : undefined;
  if (value === undefined || value.includes(',') || value.trim() === '') throw new SessauthError('invalid_token');
  const match = BEARER.exec(value);
  if (match === null) throw new SessauthError('invalid_request');
  return match[1]!;
}

function touchIfDue<U>(engine: Engine<U>, sessionId: string, lastActivityAt: Date, now: Date): void {
  const dueAt = lastActivityAt.getTime() + engine.options.activityUpdateIntervalSeconds * 1000;
  if (now.getTime() < dueAt) return;
  engine.store.touchSession(sessionId, now).catch((error: unknown) => {
    engine.logger.warn('touch_session_failed', { error: error instanceof Error ? error.name : 'unknown' });
  });
}

/** The guard of the endpoints that take a Bearer token (the list, DELETE, PATCH, the logouts). */
export function authenticateRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  return authenticate(engine, { authorization: headerValues(request.headers, 'authorization') });
}
