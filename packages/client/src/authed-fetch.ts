import type { AccessToken } from './access-token.js';
import { codeOf } from './auth-api.js';
import type { RefreshCoordinator } from './refresh-coordinator.js';
import type { SessionState } from './session-state.js';

/** Codes of a protected route that mean the session is gone for good. */
const DEAD_SESSION: ReadonlySet<string> = new Set(['session_expired', 'session_not_found', 'invalid_user']);

export interface FetchTarget {
  readonly fetch: typeof fetch;
  /** Only requests to this origin get the access token. */
  readonly apiOrigin: string;
  /** Resolves a relative URL against the API (outside a browser there is no page to resolve against). */
  resolve(input: RequestInfo | URL): RequestInfo | URL;
  readonly coordinator: RefreshCoordinator;
  readonly state: SessionState;
  /** A route asked for a fresher or stronger sign-in (RFC 9470): the client's `step-up-required` event. */
  onStepUpRequired(url: string, challenge: string): void;
  /** Puts the token on the request: `withBearer`, or with the `dpop` option a DPoP token and its proof. */
  authorize(request: Request, token: AccessToken): Request | Promise<Request>;
}

/** A copy of `request` carrying `Authorization: Bearer <token>`. */
export function withBearer(request: Request, token: AccessToken): Request {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token.raw}`);
  return new Request(request, { headers });
}

/**
 * `fetch` with the access token: refreshed ahead of expiry, and once more (then the
 * request replayed once) when the server still answers `401 expired_token`. A
 * `401` saying the session is gone signs every tab out with reason `revoked`.
 */
export async function authedFetch(target: FetchTarget, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const base = new Request(target.resolve(input), init);
  if (new URL(base.url).origin !== target.apiOrigin) {
    throw new TypeError(`sessauth: refusing to send the access token to ${new URL(base.url).origin}`);
  }
  let token = await target.coordinator.freshToken();
  let response = await target.fetch(await target.authorize(base.clone(), token));
  if (response.status !== 401) return response;
  let code = await codeOf(response.clone());
  if (code === 'expired_token') {
    token = await target.coordinator.refresh(token);
    response = await target.fetch(await target.authorize(base, token));
    if (response.status !== 401) return response;
    code = await codeOf(response.clone());
  }
  if (code === 'insufficient_user_authentication') target.onStepUpRequired(base.url, response.headers.get('www-authenticate') ?? '');
  // Only if we still hold that token: a newer session (a login meanwhile) is not affected.
  if (code !== null && DEAD_SESSION.has(code) && target.state.token?.raw === token.raw) {
    await target.coordinator.endSession('revoked');
  }
  return response;
}
