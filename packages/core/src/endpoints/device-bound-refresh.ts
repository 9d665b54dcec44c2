import type { PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { clientIpOf } from '../http/client-identity.js';
import { emptyResponse, errorToResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { isActive } from '../sessions/session-state.js';
import { verifyDeviceBoundProof } from '../tokens/device-bound-proof.js';
import {
  challengeHeaders,
  DEVICE_BOUND_REFRESH_PATH,
  deviceBoundOn,
  issueBoundCookie,
  sessionIdOf,
  sessionResponseOf,
  spendChallenge,
  storedKeyOf,
} from './device-bound-session.js';
import { throttleClient } from './throttle-request.js';

/**
 * POST /auth/device-bound/refresh/ (JWT_DEVICE_BOUND_COOKIES): the DBSC refresh, the browser's
 * challenge-response. `Sec-Secure-Session-Id` names the session; without a
 * `Secure-Session-Response`, or with one whose challenge is stale, spent or not ours, the answer
 * is 403 with a new `Secure-Session-Challenge` (the browser signs it and retries, as the draft
 * says); a proof that does not verify under the session's stored key is 401 (the browser ends its
 * DBSC session). A valid one renews the bound cookie, which a bound session's ordinary refresh
 * needs. The refresh cookie itself is rotated by `POST /auth/refresh/` as always.
 */
export const deviceBoundRefreshEndpoint = {
  route: 'device-bound-refresh',
  method: 'POST',
  path: DEVICE_BOUND_REFRESH_PATH,
  auth: 'none',
  available: (engine) => deviceBoundOn(engine),
  handle: ({ engine, request }) => refreshBoundCookie(engine, request),
} as const satisfies PublicEndpoint;

async function refreshBoundCookie<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  await throttleClient(engine, 'refresh', clientIpOf(engine, request));
  const sessionId = sessionIdOf(request);
  const session = await engine.store.findSession(sessionId);
  if (session === null) throw new SessauthError('session_not_found');
  if (!isActive(session, engine.clock.now())) throw new SessauthError('session_expired');
  const key = storedKeyOf(session);
  if (key === null) throw new DeviceBoundProofError('unbound');
  const proof = sessionResponseOf(request);
  if (proof === undefined) return challengeAnswer(engine, sessionId);
  const verified = await verifyDeviceBoundProof(proof, key);
  if ((await spendChallenge(engine, 'refresh', verified.challenge)) !== sessionId) return challengeAnswer(engine, sessionId);
  return emptyResponse({ headers: await challengeHeaders(engine, sessionId), setCookies: [await issueBoundCookie(engine, sessionId)] });
}

/** 403 with a new challenge: sign this one. */
async function challengeAnswer<U>(engine: Engine<U>, sessionId: string): Promise<SessauthResponse> {
  return errorToResponse(new SessauthError('device_bound_challenge'), engine.logger, { headers: await challengeHeaders(engine, sessionId) });
}
