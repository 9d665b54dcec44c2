import { SessauthError } from './sessauth-error.js';

/** The proof algorithms we accept (RFC 9449 s4.2: asymmetric only), as the `algs` of our challenge. */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256'] as const;

/** RFC 9449 s7.1's challenge: `DPoP error="...", algs="ES256 EdDSA RS256 PS256"`. */
export function dpopChallenge(error: 'invalid_dpop_proof' | 'invalid_token'): string {
  return `DPoP error="${error}", algs="${DPOP_ALGORITHMS.join(' ')}"`;
}

/**
 * A `DPoP` proof that is missing, malformed, for another request, replayed or signed by the
 * wrong key (RFC 9449): 401 `invalid_dpop_proof` with `WWW-Authenticate: DPoP
 * error="invalid_dpop_proof"`. `reason` names the failed check for the log, never the proof.
 */
export class DpopProofError extends SessauthError {
  override readonly name = 'DpopProofError';
  readonly reason: string;
  constructor(reason: string) {
    super('invalid_dpop_proof', { wwwAuthenticate: dpopChallenge('invalid_dpop_proof') });
    this.reason = reason;
  }
}

/**
 * An access or refresh token used outside its binding: a DPoP-bound token sent as `Bearer`, a
 * `DPoP` scheme with an unbound token, or an unbound session where `JWT_DPOP=required`:
 * 401 `invalid_token` with the DPoP challenge (RFC 9449 s7.1), so the client learns which scheme is asked.
 */
export class DpopBindingError extends SessauthError {
  override readonly name = 'DpopBindingError';
  readonly reason: string;
  constructor(reason: string) {
    super('invalid_token', { wwwAuthenticate: dpopChallenge('invalid_token') });
    this.reason = reason;
  }
}
