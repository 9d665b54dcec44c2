import { DpopProofError } from '../errors/dpop-error.js';
import { headerValues } from '../http/request-headers.js';
import { type RequestUriFacts, requestUri } from '../http/request-uri.js';
import { countHit } from '../rate-limit/throttle.js';
import { DPOP_JTI_LIFETIME_SECONDS, proofReplayKey, type VerifiedDpopProof, verifyDpopProof } from '../tokens/dpop-proof.js';
import type { Engine } from './engine.js';

/**
 * The request's one `DPoP` proof, verified against its method and URI (and the access token
 * sent with it, for `ath`), or null when it carries none. Two proofs, or a comma (how a Fetch
 * runtime joins two), fail closed (RFC 9449 s4.3 step 1). The replay check is separate
 * (`recordDpopProof`): the callers run it last, so a request refused for another reason writes nothing.
 */
export async function dpopProofOf<U>(engine: Engine<U>, request: RequestUriFacts, accessToken?: string): Promise<VerifiedDpopProof | null> {
  const values = headerValues(request.headers, 'dpop');
  if (values === undefined) return null;
  if (values.length !== 1 || values[0]!.includes(',')) throw new DpopProofError('multiple');
  const uri = requestUri(engine, request);
  if (uri === undefined) throw new DpopProofError('htu');
  return verifyDpopProof(values[0]!.trim(), {
    method: request.method,
    uri,
    now: engine.clock.now(),
    ...(accessToken === undefined ? {} : { accessToken }),
  });
}

/**
 * Records the proof's `jti` in the rate-limit store, shared by every instance: its `hit` is an
 * atomic add-and-return with expiry on every store, so exactly one request, on any instance,
 * counts 1 for a given proof; every other is a replay. The record outlives every `iat` the
 * proof could pass with. A store fault refuses the request (503), never lets it through.
 */
export async function recordDpopProof<U>(engine: Engine<U>, proof: VerifiedDpopProof): Promise<void> {
  const rate = { limit: 1, windowSec: DPOP_JTI_LIFETIME_SECONDS };
  const { count } = await countHit(engine.rateLimitStore, 'dpop_jti', await proofReplayKey(proof), rate, engine.clock.now(), engine.logger);
  if (count > 1) throw new DpopProofError('replay');
}
