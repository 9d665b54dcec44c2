import type { SignOutReason } from './types.js';

/**
 * A failed client call. `code` is the server's `error_code` (for example
 * `invalid_credentials`, `rate_limited`), or one of the client's own:
 * `signed_out` (no session to use), `network_error`, `bad_response`.
 */
export class SessauthClientError extends Error {
  override name = 'SessauthClientError';

  constructor(
    readonly code: string,
    readonly status: number | null = null,
    message: string = code,
  ) {
    super(message);
  }
}

/** Thrown by calls that need a session when there is none; `reason` says why, when known. */
export class SignedOutError extends SessauthClientError {
  constructor(readonly reason: SignOutReason | null) {
    super('signed_out', null, reason === null ? 'Not signed in' : `Signed out (${reason}): please sign in again`);
    this.name = 'SignedOutError';
  }
}
