import { boundKeyOf, type AccessToken } from './access-token.js';
import type { CsrfSource } from './csrf.js';
import type { DpopSigner } from './dpop-proof.js';
import { SessauthClientError } from './errors.js';

/** A successful login or refresh. */
export interface TokenGrant {
  readonly accessToken: string;
  /** Body transport only. */
  readonly refreshToken: string | null;
}

/**
 * What became of a refresh. `rejected` is a definite answer of the API (it carries
 * an `error_code`); `unsent` means the refresh request never left the browser (getting
 * its CSRF token failed, or the API refuses the CORS preflight every refresh needs), so
 * the token is as it was; everything else (no answer, a 5xx, a proxy's page, an
 * unreadable 200) is `ambiguous`: the old token may already be spent.
 */
export type RefreshOutcome =
  | { readonly kind: 'ok'; readonly grant: TokenGrant }
  | { readonly kind: 'rejected'; readonly status: number; readonly code: string }
  | { readonly kind: 'unsent'; readonly error: SessauthClientError }
  | { readonly kind: 'ambiguous' };

export interface ApiTarget {
  readonly fetch: typeof fetch;
  /** `path` below the auth prefix, e.g. `login/`. */
  url(path: string): string;
  readonly transport: 'cookie' | 'body';
  readonly csrf: CsrfSource;
  /** The API is on another origin than the page: a fetch that rejects there is most often CORS. */
  readonly crossOrigin: boolean;
  /** With the `dpop` option: signs the proofs of login, refresh and the calls with an access token. */
  readonly dpop: DpopSigner | null;
}

/** The wire calls of login and refresh: CSRF, credentials, and reading the answers. */
export class AuthApi {
  constructor(private readonly target: ApiTarget) {}

  /** `GET /auth/csrf/`: sets the cookie and returns a masked token. */
  async fetchCsrfToken(): Promise<string> {
    const response = await this.target.fetch(this.target.url('csrf/'), { credentials: 'include' });
    const body = await jsonOf(response);
    if (!response.ok || typeof body?.csrf_token !== 'string') throw await errorOf(response, body);
    return body.csrf_token;
  }

  async login(credentials: Record<string, unknown>): Promise<TokenGrant> {
    const { dpop } = this.target;
    const proof = dpop === null ? undefined : async () => ({ dpop: await dpop.loginProof(this.target.url('login/')) });
    const response = await this.post('login/', credentials, undefined, {}, undefined, proof);
    const body = await jsonOf(response);
    const mismatch = transportMismatch(response, body, this.target.transport);
    if (mismatch !== null) {
      // The server did sign in: end that session now, or it stays active, unusable, until it expires.
      if (response.ok && typeof body?.access_token === 'string') await this.abandon(body.access_token);
      throw mismatch;
    }
    const grant = response.ok ? grantOf(body, this.target.transport) : null;
    if (grant === null) throw await errorOf(response, body);
    this.target.csrf.remember(body?.csrf_token);
    return grant;
  }

  /** `POST /auth/logout/` with a token this client cannot keep; best effort, never throws. */
  private async abandon(accessToken: string): Promise<void> {
    try {
      const url = this.target.url('logout/');
      const { dpop } = this.target;
      const token: AccessToken = { raw: accessToken, sid: null, expiresAt: 0, lifetimeMs: 0, jkt: boundKeyOf(accessToken) };
      const headers = dpop === null ? { authorization: `Bearer ${accessToken}` } : await dpop.authHeaders('POST', url, token);
      await this.target.fetch(url, { method: 'POST', headers, credentials: 'include' });
    } catch {
      // The session expires on its own; the mismatch error is what the caller must see.
    }
  }

  /** Never throws: the caller must know whether the server may have consumed the token. */
  async refresh(refreshToken: string | null, timeoutMs: number, jkt: string | null = null): Promise<RefreshOutcome> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    // Set just before the refresh request itself is handed to fetch: a failure before that point
    // (the CSRF token's GET, which a misconfigured CORS refuses too) presented no token at all.
    const sent = { refresh: false };
    try {
      const body = this.target.transport === 'body' ? { refresh_token: refreshToken } : {};
      const { dpop } = this.target;
      // The session's key: the one its refresh token names (body transport), else the caller's guess.
      const key = refreshToken === null ? jkt : (boundKeyOf(refreshToken) ?? jkt);
      const proof = dpop === null ? undefined : async () => proofHeader(await dpop.refreshProof(this.target.url('refresh/'), key));
      const response = await this.post('refresh/', body, abort.signal, {}, sent, proof);
      const json = await jsonOf(response);
      const grant = response.ok ? grantOf(json, this.target.transport) : null;
      if (grant !== null) return { kind: 'ok', grant };
      const code = typeof json?.error_code === 'string' ? json.error_code : null;
      if (response.status >= 400 && response.status < 500 && code !== null) return { kind: 'rejected', status: response.status, code };
      return { kind: 'ambiguous' };
    } catch (error) {
      if (!sent.refresh) return { kind: 'unsent', error: this.networkError(error) };
      if (!abort.signal.aborted && error instanceof TypeError && (await this.refusesPreflight())) {
        return { kind: 'unsent', error: this.networkError(error, PREFLIGHT_REFUSED) };
      }
      return { kind: 'ambiguous' };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A browser does not tell script why a fetch failed. After a refresh's fetch rejected on a
   * cross-origin API, two requests that change nothing tell one case apart for sure: the API
   * answers a simple CORS request (a GET without custom headers, sent without a preflight), yet a
   * POST with the refresh's own headers to `csrf/` (a route that takes no POST: 405, nothing
   * changes) fails. That POST needs exactly the refresh's preflight (same method, same headers),
   * so its failure means the refresh's preflight is refused, and a refused preflight means the
   * refresh was never sent. A probe with another method would ask the CORS layer something else:
   * one that allows only POST would refuse it although the refresh went through. Anything else
   * (the network is down, every CORS answer is missing) stays ambiguous: a POST whose preflight
   * passed may have been processed although its answer could not be read.
   */
  private async refusesPreflight(): Promise<boolean> {
    if (!this.target.crossOrigin) return false;
    const credentials: RequestCredentials = this.target.transport === 'cookie' ? 'include' : 'same-origin';
    const answers = (init: RequestInit, path: string) =>
      this.target.fetch(this.target.url(path), { ...init, credentials, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
        () => true,
        () => false,
      );
    if (!(await answers({ method: 'GET' }, 'csrf/'))) return false;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(this.target.transport === 'cookie' ? { 'x-csrftoken': 'probe' } : {}),
      // With DPoP the refresh carries a proof: the probe's preflight must ask for that header too.
      ...(this.target.dpop === null ? {} : { dpop: 'probe' }),
    };
    return !(await answers({ method: 'POST', headers, body: '{}' }, 'csrf/'));
  }

  /** `network_error` for a fetch that rejected; on a cross-origin API the message names CORS. */
  networkError(error: unknown, known?: string): SessauthClientError {
    if (error instanceof SessauthClientError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (known !== undefined) return new SessauthClientError('network_error', null, `${message}: ${known}`);
    if (!this.target.crossOrigin || !(error instanceof TypeError)) return new SessauthClientError('network_error', null, message);
    return new SessauthClientError('network_error', null, `${message}: ${LIKELY_CORS}`);
  }

  /**
   * `POST reauthenticate/` (RFC 9470 step-up) with the current password behind the access token:
   * the session's sign-in is now. Throws `SessauthClientError` (`invalid_credentials`...).
   */
  async reauthenticate(password: string, accessToken: AccessToken): Promise<void> {
    const { dpop } = this.target;
    const response =
      dpop === null
        ? await this.post('reauthenticate/', { password }, undefined, { authorization: `Bearer ${accessToken.raw}` })
        : await this.post('reauthenticate/', { password }, undefined, {}, undefined, () =>
            dpop.authHeaders('POST', this.target.url('reauthenticate/'), accessToken),
          );
    if (!response.ok) throw await errorOf(response);
  }

  /**
   * A JSON POST; in cookie transport with `X-CSRFToken`, renewed once after `403 csrf_failed`.
   * `sent.refresh` turns true as the POST itself is handed to fetch. `signed` adds headers made
   * anew for each send (a DPoP proof is good for one request only).
   */
  private async post(
    path: string,
    body: unknown,
    signal?: AbortSignal,
    extraHeaders: Record<string, string> = {},
    sent: { refresh: boolean } = { refresh: false },
    signed?: () => Promise<Record<string, string>>,
  ): Promise<Response> {
    const cookie = this.target.transport === 'cookie';
    const send = async (csrfToken: string | null): Promise<Response> => {
      const perRequest = signed === undefined ? {} : await signed();
      sent.refresh = true;
      return this.target.fetch(this.target.url(path), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...extraHeaders,
          ...perRequest,
          ...(csrfToken === null ? {} : { 'x-csrftoken': csrfToken }),
        },
        body: JSON.stringify(body),
        credentials: cookie ? 'include' : 'same-origin',
        ...(signal === undefined ? {} : { signal }),
      });
    };
    if (!cookie) return send(null);
    const first = await send(await this.target.csrf.token());
    if (first.status !== 403 || (await codeOf(first.clone())) !== 'csrf_failed') return first;
    // A refused request changed nothing: until the retry leaves, nothing was presented that counts.
    sent.refresh = false;
    return send(await this.target.csrf.renew());
  }
}

const PROBE_TIMEOUT_MS = 5000;

/** A proof as a header, or no header when there is no key to sign with. */
function proofHeader(proof: string | null): Record<string, string> {
  return proof === null ? {} : { dpop: proof };
}

// Short on purpose: every byte ships in the client.
const LIKELY_CORS =
  "likely CORS (the API is on another origin): allow this page's origin with credentials, the CORS layer before sessauth's; or the network is down";

const PREFLIGHT_REFUSED = 'CORS refused the preflight (OPTIONS) of the refresh, which was never sent: allow POST, Content-Type and X-CSRFToken';

/**
 * The server and this client must agree on where the refresh token travels; a mismatch
 * would log in fine and fail at the first refresh with a bare 400, so stop at login
 * with the fix named (null when they agree).
 */
function transportMismatch(response: Response, body: Record<string, unknown> | null, transport: 'cookie' | 'body'): SessauthClientError | null {
  // A body-transport client sends no CSRF token: a cookie-transport server refuses it.
  const cookieServer = response.status === 403 && body?.error_code === 'csrf_failed';
  if (transport === 'body' && cookieServer) {
    return new SessauthClientError(
      'transport_mismatch',
      403,
      "The server asks for a CSRF token at login, so its JWT_REFRESH_TOKEN_TRANSPORT is 'cookie' or 'both', but this client's transport is 'body'. Pass transport: 'cookie' to the client, or set JWT_REFRESH_TOKEN_TRANSPORT=body on the server.",
    );
  }
  if (!response.ok || typeof body?.access_token !== 'string') return null;
  const inBody = typeof body.refresh_token === 'string';
  if (transport === 'cookie' && inBody) {
    return new SessauthClientError(
      'transport_mismatch',
      null,
      "The server returned the refresh token in the JSON body (JWT_REFRESH_TOKEN_TRANSPORT is 'body' or 'both'), but this client's transport is 'cookie'. Set JWT_REFRESH_TOKEN_TRANSPORT=cookie on the server, or pass transport: 'body' to the client.",
    );
  }
  if (transport === 'body' && !inBody) {
    return new SessauthClientError(
      'transport_mismatch',
      null,
      "The server returned no refresh token in the JSON body (JWT_REFRESH_TOKEN_TRANSPORT is 'cookie'), but this client's transport is 'body'. Pass transport: 'cookie' to the client, or set JWT_REFRESH_TOKEN_TRANSPORT=body on the server.",
    );
  }
  return null;
}

function grantOf(body: Record<string, unknown> | null, transport: 'cookie' | 'body'): TokenGrant | null {
  if (typeof body?.access_token !== 'string') return null;
  if (transport === 'cookie') return { accessToken: body.access_token, refreshToken: null };
  return typeof body.refresh_token === 'string' ? { accessToken: body.access_token, refreshToken: body.refresh_token } : null;
}

/** The JSON object of a response, or null (empty, cut short, not JSON). */
export async function jsonOf(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await response.json();
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `error_code` of an error response, or null. */
export async function codeOf(response: Response): Promise<string | null> {
  const body = await jsonOf(response);
  return typeof body?.error_code === 'string' ? body.error_code : null;
}

/** A thrown error for a failed call: the server's code when it sent one. */
export async function errorOf(response: Response, body?: Record<string, unknown> | null): Promise<SessauthClientError> {
  const json = body === undefined ? await jsonOf(response) : body;
  const code = typeof json?.error_code === 'string' ? json.error_code : 'bad_response';
  const message = typeof json?.message === 'string' ? json.message : `HTTP ${response.status}`;
  return new SessauthClientError(code, response.status, message);
}
