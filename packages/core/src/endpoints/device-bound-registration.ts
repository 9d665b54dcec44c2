import type { PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import { clientIpOf } from '../http/client-identity.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import { verifyDeviceBoundProof } from '../tokens/device-bound-proof.js';
import {
  challengeHeaders,
  DEVICE_BOUND_REGISTRATION_PATH,
  deviceBoundOn,
  issueBoundCookie,
  sessionInstructions,
  sessionResponseOf,
  spendChallenge,
} from './device-bound-session.js';
import { throttleClient } from './throttle-request.js';

/**
 * POST /auth/device-bound/registration/ (JWT_DEVICE_BOUND_COOKIES): the browser answers our
 * `Secure-Session-Registration` with a `Secure-Session-Response` JWT signed by a key it made,
 * whose header carries the public key and whose `jti` is our challenge. The challenge is sealed to
 * one session and spent once; the signature must hold under the proof's own key; then the
 * session is bound to that key, once (a bound session is never re-bound). The answer is the
 * session config, the first bound cookie and a challenge for the next refresh. No CSRF token:
 * only the holder of the login answer's challenge can register, and only with a signature.
 */
export const deviceBoundRegistrationEndpoint = {
  route: 'device-bound-registration',
  method: 'POST',
  path: DEVICE_BOUND_REGISTRATION_PATH,
  auth: 'none',
  available: (engine) => deviceBoundOn(engine),
  handle: ({ engine, request }) => register(engine, request),
} as const satisfies PublicEndpoint;

async function register<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse> {
  await throttleClient(engine, 'refresh', clientIpOf(engine, request));
  const proof = sessionResponseOf(request);
  if (proof === undefined) throw new DeviceBoundProofError('missing');
  const verified = await verifyDeviceBoundProof(proof, undefined);
  const sessionId = await spendChallenge(engine, 'registration', verified.challenge);
  if (sessionId === null) throw new DeviceBoundProofError('challenge');
  const session = await engine.store.findSession(sessionId);
  const bind = engine.store.bindDeviceKey?.bind(engine.store);
  const bound =
    session !== null &&
    bind !== undefined &&
    (await bind({ sessionId, userId: session.userId, publicKey: JSON.stringify(verified.jwk), now: engine.clock.now() }));
  if (!bound) throw new DeviceBoundProofError('not_bindable');
  engine.logger.info?.('device_bound_session_registered', { session: sessionId });
  return jsonResponse(200, sessionInstructions(engine, sessionId), {
    headers: await challengeHeaders(engine, sessionId),
    setCookies: [await issueBoundCookie(engine, sessionId)],
  });
}
