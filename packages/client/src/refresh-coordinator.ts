import { adoptAccessToken, isFresh, readAccessToken, type AccessToken } from './access-token.js';
import type { AuthApi } from './auth-api.js';
import { SessauthClientError, SignedOutError } from './errors.js';
import type { SessionState } from './session-state.js';
import type { TabLink } from './tab-link.js';
import type { SignOutReason, TokenStorage } from './types.js';

export interface CoordinatorDeps {
  readonly state: SessionState;
  readonly link: TabLink;
  readonly api: AuthApi;
  /** Body transport: where the refresh token lives; null in cookie transport. */
  readonly storage: TokenStorage | null;
  readonly now: () => number;
  readonly aheadMs: number;
  readonly peerWaitMs: number;
  readonly timeoutMs: number;
  /** Best effort, after an ambiguous refresh: end the session with the access token still held. */
  readonly abandon: (token: AccessToken) => Promise<void>;
}

/**
 * The one rule: no refresh token is ever presented twice by this client.
 * - In a tab, concurrent callers share one refresh (single flight).
 * - Across tabs, a refresh runs only under the origin-wide Web Lock. Under it a tab
 *   first looks whether the state moved on since it decided to refresh (another
 *   tab's result arrived on the channel): then it adopts that token instead. A tab
 *   with no token asks the others before refreshing. The refresh credential (the
 *   cookie, or the storage) is read under the lock and replaced before it is
 *   released, so even a broadcast that arrives late costs a spare refresh of the
 *   *new* token, never a replay of the old one.
 * - A refresh whose answer is lost is never retried: the tab signs out (`ambiguous`).
 */
export class RefreshCoordinator {
  private inflight: Promise<AccessToken> | null = null;

  constructor(private readonly deps: CoordinatorDeps) {}

  /** The current token if it has life left, else a refreshed (or adopted) one. */
  async freshToken(): Promise<AccessToken> {
    const { state, now, aheadMs } = this.deps;
    if (state.status === 'signed-out') throw new SignedOutError(state.reason);
    if (state.token !== null && isFresh(state.token, now(), aheadMs)) return state.token;
    return this.refresh(state.token);
  }

  /** A token other than `seen` (the one the caller holds): adopted if another tab has it, else refreshed. */
  refresh(seen: AccessToken | null): Promise<AccessToken> {
    if (this.inflight === null) {
      this.inflight = this.deps.link.exclusive(() => this.tokenUnderLock(seen)).finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  /** Runs `task` under the lock with a live token (so no refresh of another tab interleaves). */
  withSession<T>(task: (token: AccessToken) => Promise<T>): Promise<T> {
    return this.deps.link.exclusive(async () => task(await this.tokenUnderLock('any')));
  }

  /** Called with the lock held. */
  private async tokenUnderLock(seen: AccessToken | null | 'any'): Promise<AccessToken> {
    const { state, link } = this.deps;
    // Messages already queued for this tab (another tab's result) are delivered first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const moved = this.movedOn(seen);
    if (moved !== null) return moved;
    if (state.token === null && link.crossTab) {
      const reply = await link.askPeers(this.deps.peerWaitMs);
      if (reply !== null) this.adopt(reply.token, reply.expiresAt);
      const adopted = this.movedOn(seen);
      if (adopted !== null) return adopted;
    }
    return this.rotate();
  }

  /** The token to use instead of refreshing, if the state changed under us; throws once signed out. */
  private movedOn(seen: AccessToken | null | 'any'): AccessToken | null {
    const { state, now, aheadMs } = this.deps;
    if (state.status === 'signed-out') throw new SignedOutError(state.reason);
    const current = state.token;
    if (current === null || !isFresh(current, now(), aheadMs)) return null;
    return seen === 'any' || current.raw !== seen?.raw ? current : null;
  }

  /** Takes another tab's token if it is newer than ours. */
  adopt(raw: string, expiresAt: number): void {
    const { state, now } = this.deps;
    if (state.status === 'signed-out') return;
    let token: AccessToken;
    try {
      token = adoptAccessToken(raw, expiresAt, now());
    } catch {
      return;
    }
    if (state.token !== null && (token.raw === state.token.raw || token.expiresAt < state.token.expiresAt)) return;
    state.renew(token, 'other-tab');
  }

  /** The refresh itself: one request, never repeated with the same token. */
  private async rotate(): Promise<AccessToken> {
    const { api, storage, state, link, now, timeoutMs } = this.deps;
    const presented = storage === null ? null : await storage.get();
    if (storage !== null && presented === null) return this.end('expired');
    const outcome = await api.refresh(presented, timeoutMs);
    if (outcome.kind === 'rejected') {
      // Refused before anything changed: the session (and our token) are as they were.
      if (outcome.status !== 401 && outcome.code !== 'invalid_token_type') {
        throw new SessauthClientError(outcome.code, outcome.status);
      }
      return this.end(reasonOf(outcome.code));
    }
    let token: AccessToken | null = null;
    if (outcome.kind === 'ok') {
      try {
        token = readAccessToken(outcome.grant.accessToken, now());
      } catch {
        token = null;
      }
    }
    if (token === null) return this.giveUp();
    if (storage !== null) await storage.set(outcome.kind === 'ok' ? outcome.grant.refreshToken : null);
    state.renew(token, 'this-tab');
    link.post({ type: 'refreshed', token: token.raw, expiresAt: token.expiresAt });
    return token;
  }

  /** Ambiguous: forget everything, tell every tab, and end the session if our access token still can. */
  private async giveUp(): Promise<never> {
    const held = this.deps.state.token;
    if (held !== null && held.expiresAt > this.deps.now()) void this.deps.abandon(held).catch(() => undefined);
    return this.end('ambiguous');
  }

  /** Signs this tab and the others out (the session is the same in every tab). */
  async endSession(reason: SignOutReason): Promise<void> {
    if (this.deps.storage !== null) await this.deps.storage.set(null);
    if (this.deps.state.signOut(reason, 'this-tab')) this.deps.link.post({ type: 'signed-out', reason });
  }

  private async end(reason: SignOutReason): Promise<never> {
    await this.endSession(reason);
    throw new SignedOutError(reason);
  }
}

function reasonOf(code: string): SignOutReason {
  if (code === 'token_reuse_detected') return 'reuse_detected';
  if (code === 'session_expired' || code === 'session_not_found' || code === 'invalid_user') return 'revoked';
  return 'expired';
}
