import { resolveClientConfig, type ClientConfig } from './client-config.js';
import { isFresh, refreshDueAt, type AccessToken } from './access-token.js';
import { AuthApi, errorOf } from './auth-api.js';
import { authedFetch, withBearer } from './authed-fetch.js';
import { CsrfSource, documentCookieReader } from './csrf.js';
import { DpopKeyring } from './dpop-key.js';
import { DpopSigner } from './dpop-proof.js';
import { SessauthClientError, SignedOutError } from './errors.js';
import { Emitter, type Listener } from './events.js';
import { RefreshCoordinator } from './refresh-coordinator.js';
import { SessionState } from './session-state.js';
import { TabLink, type TabMessage } from './tab-link.js';
import { memoryStorage } from './token-storage.js';
import type { ClientStatus, SessauthClientEventName, SessauthClientOptions, SessionInfo, TokenStorage } from './types.js';

/** The sessauth browser client: see the package README. */
export class SessauthClient {
  private readonly config: ClientConfig;
  private readonly emitter = new Emitter();
  private readonly state: SessionState;
  private readonly link: TabLink;
  private readonly api: AuthApi;
  private readonly coordinator: RefreshCoordinator;
  /** Body transport only. */
  private readonly storage: TokenStorage | null;
  /** With the `dpop` option only. */
  private readonly dpop: DpopSigner | null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SessauthClientOptions = {}) {
    const config = (this.config = resolveClientConfig(options));
    this.state = new SessionState(this.emitter, () => this.schedule());
    this.link = new TabLink(config.locks, config.channel, config.key, (message) => this.onTabMessage(message));
    this.storage = config.transport === 'body' ? (options.storage ?? memoryStorage()) : null;
    const dpop = (this.dpop = config.dpop ? new DpopSigner(new DpopKeyring(config.key), config.now) : null);
    const sameOrigin = typeof location !== 'undefined' && location.origin === config.apiOrigin;
    const csrf = new CsrfSource(sameOrigin ? documentCookieReader(config.csrfCookieName) : () => null, (): Promise<string> => api.fetchCsrfToken());
    const api: AuthApi = (this.api = new AuthApi({
      fetch: config.fetch,
      url: (path) => config.authUrl(path),
      transport: config.transport,
      csrf,
      crossOrigin: typeof location !== 'undefined' && location.origin !== config.apiOrigin,
      dpop,
    }));
    this.coordinator = new RefreshCoordinator({
      state: this.state,
      link: this.link,
      api,
      storage: this.storage,
      now: config.now,
      aheadMs: config.aheadMs,
      peerWaitMs: config.peerWaitMs,
      timeoutMs: config.refreshTimeoutMs,
      abandon: async (token) => void (await this.send('POST', 'logout/', token, AbortSignal.timeout(config.refreshTimeoutMs))),
      forgetKey: dpop === null ? null : (jkt) => dpop.forget(jkt),
    });
  }

  /** `unknown` until `restore()` or `login()` decided. */
  get status(): ClientStatus {
    return this.state.status;
  }

  /** When the current access token expires, or null. */
  get expiresAt(): Date | null {
    return this.state.token === null ? null : new Date(this.state.token.expiresAt);
  }

  /** The current session's id: the row of "this device" in `listSessions()`. */
  get sessionId(): string | null {
    return this.state.token?.sid ?? null;
  }

  on<K extends SessauthClientEventName>(type: K, listener: Listener<K>): () => void {
    return this.emitter.on(type, listener);
  }

  /** Signs in (built-in authenticator: `{ username, password }`). Throws `SessauthClientError`. */
  async login(credentials: Record<string, unknown>): Promise<void> {
    await this.link.exclusive(async () =>
      this.coordinator.startSession(
        await this.api.login(credentials).catch((error: unknown) => {
          throw this.api.networkError(error);
        }),
      ),
    );
  }

  /**
   * For a page that just opened: takes another tab's token, or refreshes with the
   * cookie (or the stored refresh token). Resolves whether a session was found.
   */
  async restore(): Promise<boolean> {
    if (this.state.status === 'signed-in') return true;
    try {
      await this.coordinator.refresh(null);
      return true;
    } catch (error) {
      if (error instanceof SignedOutError) return false;
      throw error;
    }
  }

  /** A live access token (refreshed if due). Throws `SignedOutError` without a session. */
  async accessToken(): Promise<string> {
    return (await this.coordinator.freshToken()).raw;
  }

  /** Refreshes now (shared with any refresh already under way). */
  async refresh(): Promise<void> {
    if (this.state.status === 'signed-out') throw new SignedOutError(this.state.reason);
    await this.coordinator.refresh(this.state.token);
  }

  /** `fetch` with `Authorization: Bearer` (with `dpop`: `DPoP` and a proof), for the API's origin only. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    return authedFetch(
      {
        fetch: this.config.fetch,
        apiOrigin: this.config.apiOrigin,
        resolve: (i) => this.config.resolve(i),
        coordinator: this.coordinator,
        state: this.state,
        onStepUpRequired: (url, challenge) => this.emitter.emit('step-up-required', { url, ...stepUpChallenge(challenge) }),
        authorize: (request, token) => this.authorize(request, token),
      },
      input,
      init,
    );
  }

  /** "Where you're signed in": one row per device, `is_current` on this one. */
  async listSessions(): Promise<SessionInfo[]> {
    const response = await this.fetch(this.config.authUrl('sessions/'));
    if (!response.ok) throw await this.failure(response);
    const rows: unknown = await response.json();
    if (!Array.isArray(rows)) throw new SessauthClientError('bad_response', response.status);
    return rows as SessionInfo[];
  }

  /** Signs one device out; this device's own id is the same as `logout()`. */
  async signOutDevice(sessionId: string): Promise<void> {
    if (sessionId === this.sessionId) return this.endHere('DELETE', `sessions/${encodeURIComponent(sessionId)}/`);
    const response = await this.fetch(this.config.authUrl(`sessions/${encodeURIComponent(sessionId)}/`), { method: 'DELETE' });
    if (!response.ok) throw await this.failure(response);
  }

  /**
   * Names one of the user's devices ("Work laptop"): trimmed, 1..64 characters, no control
   * characters (else `invalid_request`); `session_not_found` when it is not one of theirs.
   * Resolves to the row as `listSessions()` shows it.
   */
  async renameSession(sessionId: string, name: string): Promise<SessionInfo> {
    const response = await this.fetch(this.config.authUrl(`sessions/${encodeURIComponent(sessionId)}/`), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (!response.ok) throw await this.failure(response);
    const row: unknown = await response.json();
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new SessauthClientError('bad_response', response.status);
    return row as SessionInfo;
  }

  /**
   * Step-up (RFC 9470): proves the user again with the current password (`POST reauthenticate/`),
   * so the session's sign-in is now and routes under a freshness rule let it in, then refreshes
   * so every tab holds an access token carrying the new `auth_time`. Throws `SessauthClientError`
   * (`invalid_credentials` for a wrong password, which signs no one out).
   */
  async stepUp(password: string): Promise<void> {
    await this.api.reauthenticate(password, await this.coordinator.freshToken()).catch(networkError);
    await this.refresh();
  }

  /** Signs every other device of the user out; this one stays signed in. */
  async logoutOthers(): Promise<void> {
    const response = await this.fetch(this.config.authUrl('logout/others/'), { method: 'POST' });
    if (!response.ok) throw await this.failure(response);
  }

  /** Signs this device out (every tab of it). */
  logout(): Promise<void> {
    return this.endHere('POST', 'logout/');
  }

  /** Signs every device of the user out, this one included. */
  logoutEverywhere(): Promise<void> {
    return this.endHere('POST', 'logout/all/');
  }

  /** Stops the timer and leaves the tab channel. */
  close(): void {
    clearTimeout(this.timer);
    this.link.close();
  }

  /** An ending call under the lock; `401` means the session is gone already, which is the goal too. */
  private async endHere(method: string, path: string): Promise<void> {
    try {
      await this.coordinator.withSession(async (token) => {
        let response = await this.send(method, path, token).catch(networkError);
        // An access token that lapsed on the way says nothing about the session: the
        // server did not sign anyone out, so renew it and send once more (else a
        // "sign out everywhere" would leave the other devices signed in).
        if (response.status === 401 && (await errorOf(response.clone())).code === 'expired_token') {
          response = await this.send(method, path, await this.coordinator.renewWithinSession(token)).catch(networkError);
        }
        if (!response.ok && response.status !== 401) throw await errorOf(response);
        await this.coordinator.endSession('logout', true);
      });
    } catch (error) {
      if (!(error instanceof SignedOutError)) throw error;
    }
  }

  /** The error of a failed call; a 401 that ended the session is a `SignedOutError`. */
  private async failure(response: Response): Promise<SessauthClientError> {
    if (response.status === 401 && this.state.status === 'signed-out') return new SignedOutError(this.state.reason);
    return errorOf(response);
  }

  private async send(method: string, path: string, token: AccessToken, signal?: AbortSignal): Promise<Response> {
    const request = new Request(this.config.authUrl(path), { method, credentials: 'include', ...(signal === undefined ? {} : { signal }) });
    return this.config.fetch(await this.authorize(request, token));
  }

  /** The access token on a request: `Bearer`, or with the `dpop` option a DPoP token and its proof. */
  private authorize(request: Request, token: AccessToken): Request | Promise<Request> {
    return this.dpop === null ? withBearer(request, token) : this.dpop.authorize(request, token);
  }

  private onTabMessage(message: TabMessage): void {
    const { state } = this;
    switch (message.type) {
      case 'signed-in':
      case 'refreshed':
        this.coordinator.adopt(message);
        return;
      case 'signed-out':
        this.coordinator.learnSignOut(message.reason, message.gen);
        return;
      case 'token-request':
        if (state.token !== null && isFresh(state.token, this.config.now(), this.config.aheadMs)) {
          const { raw, expiresAt } = state.token;
          this.link.post({ type: 'token-reply', id: message.id, token: raw, expiresAt, gen: state.generation });
        }
        return;
      default:
        return;
    }
  }

  /** With `autoRefresh`, wakes a little after the refresh point (tabs spread out, so one refreshes and the others adopt). */
  private schedule(): void {
    clearTimeout(this.timer);
    const token = this.state.token;
    if (!this.config.autoRefresh || token === null) return;
    const margin = token.expiresAt - refreshDueAt(token, this.config.aheadMs);
    const wait = refreshDueAt(token, this.config.aheadMs) - this.config.now() + Math.random() * margin * 0.5;
    this.timer = setTimeout(() => void this.accessToken().catch(() => undefined), Math.max(0, wait));
    // A scheduled refresh must not keep a Node process alive on its own.
    (this.timer as { unref?: () => void }).unref?.();
  }
}

/** Creates a client; in a browser with no options it talks cookie transport to `/auth` of the page's origin. */
export function createSessauthClient(options: SessauthClientOptions = {}): SessauthClient {
  return new SessauthClient(options);
}

/** The `max_age` and `acr_values` of an RFC 9470 challenge (`WWW-Authenticate: Bearer error="insufficient_user_authentication", ...`). */
function stepUpChallenge(header: string): { maxAgeSeconds: number | null; acrValues: string[] } {
  const param = (name: string) => new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"([^"]*)"|([^\\s,]+))`, 'i').exec(header);
  const maxAge = param('max_age');
  const acr = param('acr_values');
  const seconds = Number(maxAge?.[1] ?? maxAge?.[2]);
  return {
    maxAgeSeconds: maxAge !== null && Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : null,
    acrValues: (acr?.[1] ?? acr?.[2] ?? '').split(' ').filter((value) => value !== ''),
  };
}

function networkError(error: unknown): never {
  if (error instanceof SessauthClientError) throw error;
  throw new SessauthClientError('network_error', null, error instanceof Error ? error.message : String(error));
}
