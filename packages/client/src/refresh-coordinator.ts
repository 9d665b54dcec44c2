import { adoptAccessToken, isFresh, readAccessToken, type AccessToken } from './access-token.js';
import type { AuthApi, TokenGrant } from './auth-api.js';
import { SessauthClientError, SignedOutError } from './errors.js';
import type { SessionState } from './session-state.js';
import type { TabLink, TokenNews } from './tab-link.js';
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
  /** After an ambiguous refresh: end the session with the access token still held (clears the cookie). */
  readonly abandon: (token: AccessToken) => Promise<void>;
  /** With the `dpop` option: deletes the key of a session that ended (by thumbprint; null: the stored one). */
  readonly forgetKey: ((jkt: string | null) => Promise<void>) | null;
}

/**
 * The one rule: no refresh token is ever presented twice by this client.
 * - In a tab, concurrent callers share one refresh (single flight).
 * - Across tabs, the refresh credential (the cookie, or the storage) is only used
 *   under the origin-wide lock, and replaced before the lock is released.
 * - Under the lock a tab first catches up: if another tab published a newer
 *   generation since this one decided to refresh, it takes that tab's token (or
 *   its sign-out) instead of refreshing. A tab that just opened asks the others.
 * - A refresh whose answer is lost is never retried: every tab signs out
 *   (`ambiguous`), and that is published before the lock is released, so no other
 *   tab presents the uncertain cookie either.
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
      this.inflight = this.deps.link
        .exclusive(() => this.tokenUnderLock(seen))
        .finally(() => {
          this.inflight = null;
        });
    }
    return this.inflight;
  }

  /** Runs `task` under the lock with a live token (so no refresh of another tab interleaves). */
  withSession<T>(task: (token: AccessToken) => Promise<T>): Promise<T> {
    return this.deps.link.exclusive(async () => task(await this.tokenUnderLock('any')));
  }

  /**
   * Only inside `withSession`: a token other than `seen`, which the server refused as
   * expired (it can lapse on the way, or the clocks differ): another tab's if newer,
   * else refreshed.
   */
  renewWithinSession(seen: AccessToken): Promise<AccessToken> {
    return this.tokenUnderLock(seen);
  }

  /** Under the lock: a login's tokens become the new generation. */
  async startSession(grant: TokenGrant): Promise<void> {
    const gen = await this.nextGeneration();
    const token = readAccessToken(grant.accessToken, this.deps.now());
    if (this.deps.storage !== null) await this.deps.storage.set(grant.refreshToken);
    this.deps.state.signIn(token, 'this-tab', gen);
    await this.announce({ type: 'signed-in', token: token.raw, expiresAt: token.expiresAt, gen });
  }

  /** Signs every tab out (they share the session); takes the lock unless the caller holds it. */
  endSession(reason: SignOutReason, lockHeld = false): Promise<void> {
    const end = async (): Promise<void> => {
      if (this.deps.storage !== null) await this.deps.storage.set(null);
      if (this.deps.forgetKey !== null) await this.forgetKey();
      const gen = await this.nextGeneration();
      if (this.deps.state.signOut(reason, 'this-tab', gen)) await this.announce({ type: 'signed-out', reason, gen });
    };
    return lockHeld ? end() : this.deps.link.exclusive(end);
  }

  /**
   * A session that ended takes its DPoP key along: no key outlives its sign-in to link it to the
   * next one. Without a token held, the key is known only in cookie transport (the origin's cookie
   * and key go together); a body-transport tab then leaves the key to the tab that holds it.
   */
  private async forgetKey(): Promise<void> {
    const { forgetKey, state, storage } = this.deps;
    const jkt = state.token?.jkt ?? null;
    if (forgetKey === null || (jkt === null && storage !== null)) return;
    await forgetKey(jkt).catch(() => undefined);
  }

  /** News from another tab (a message or a reply): taken only when newer than ours. */
  adopt(news: TokenNews): void {
    const { state, now } = this.deps;
    if (news.gen <= state.generation) return;
    let token: AccessToken;
    try {
      token = adoptAccessToken(news.token, news.expiresAt, now());
    } catch {
      return;
    }
    if (news.type === 'signed-in') state.signIn(token, 'other-tab', news.gen);
    else state.renew(token, 'other-tab', news.gen);
    void this.deps.link.publish(news.gen, null);
  }

  /** Another tab signed out (a message, or the published state): so does this one. */
  learnSignOut(reason: SignOutReason, gen: number): void {
    if (gen <= this.deps.state.generation) return;
    this.deps.state.signOut(reason, 'other-tab', gen);
    void this.deps.link.publish(gen, reason);
  }

  private async tokenUnderLock(seen: AccessToken | null | 'any'): Promise<AccessToken> {
    await this.catchUp();
    const { state, now, aheadMs } = this.deps;
    if (state.status === 'signed-out') throw new SignedOutError(state.reason);
    const current = state.token;
    if (current !== null && isFresh(current, now(), aheadMs) && (seen === 'any' || current.raw !== seen?.raw)) return current;
    return this.rotate();
  }

  /** Brings this tab up to the newest published state, if another tab has it. */
  private async catchUp(): Promise<void> {
    const { state, link, peerWaitMs } = this.deps;
    const published = await link.readPublished();
    if (published === undefined) {
      // No lock snapshot to read: let queued messages land, and ask around when we hold nothing.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (state.token === null && state.status !== 'signed-out' && link.crossTab) this.take(await link.askPeers(peerWaitMs));
      return;
    }
    if (published === null || published.gen <= state.generation) return;
    if (published.signedOut !== null) return this.learnSignOut(published.signedOut, published.gen);
    // A newer token exists: its broadcast is on the way, or it predates this tab: ask.
    await Promise.race([state.reached(published.gen, peerWaitMs), link.askPeers(peerWaitMs).then((reply) => this.take(reply))]);
  }

  private take(reply: TokenNews | null): void {
    if (reply !== null) this.adopt({ ...reply, type: 'refreshed' });
  }

  /** The refresh itself: one request, never repeated with the same token. */
  private async rotate(): Promise<AccessToken> {
    const { api, storage, state, now, timeoutMs } = this.deps;
    const presented = storage === null ? null : await storage.get();
    if (storage !== null && presented === null) return this.fail('expired');
    const outcome = await api.refresh(presented, timeoutMs, state.token?.jkt ?? null);
    // The refresh never left the browser (its CSRF token could not be had, or CORS refused its
    // preflight): nothing was presented, so the session is as it was and no tab signs out.
    if (outcome.kind === 'unsent') throw outcome.error;
    if (outcome.kind === 'rejected') {
      // Refused before anything changed (throttle, CSRF, bad request): the session is as it was.
      if (outcome.status !== 401 && outcome.code !== 'invalid_token_type') throw new SessauthClientError(outcome.code, outcome.status);
      return this.fail(reasonOf(outcome.code));
    }
    let token: AccessToken | null = null;
    if (outcome.kind === 'ok') {
      try {
        token = readAccessToken(outcome.grant.accessToken, now());
      } catch {
        token = null;
      }
    }
    if (outcome.kind !== 'ok' || token === null) {
      const held = state.token;
      if (held !== null && held.expiresAt > now()) await this.deps.abandon(held).catch(() => undefined);
      return this.fail('ambiguous');
    }
    if (storage !== null) await storage.set(outcome.grant.refreshToken);
    const gen = await this.nextGeneration();
    state.renew(token, 'this-tab', gen);
    await this.announce({ type: 'refreshed', token: token.raw, expiresAt: token.expiresAt, gen });
    return token;
  }

  private async fail(reason: SignOutReason): Promise<never> {
    await this.endSession(reason, true);
    throw new SignedOutError(reason);
  }

  /**
   * Above every generation known here or published, and at least the clock: a tab
   * that opens after every informed tab closed still starts above the old ones.
   */
  private async nextGeneration(): Promise<number> {
    const published = await this.deps.link.readPublished();
    return Math.max(this.deps.state.generation + 1, (published?.gen ?? 0) + 1, Math.floor(this.deps.now()));
  }

  /** Broadcast first, then publish (still under the lock): the next holder finds either. */
  private async announce(
    news:
      | { type: 'signed-in' | 'refreshed'; token: string; expiresAt: number; gen: number }
      | { type: 'signed-out'; reason: SignOutReason; gen: number },
  ): Promise<void> {
    this.deps.link.post(news);
    await this.deps.link.publish(news.gen, news.type === 'signed-out' ? news.reason : null);
  }
}

function reasonOf(code: string): SignOutReason {
  if (code === 'token_reuse_detected') return 'reuse_detected';
  if (code === 'session_expired' || code === 'session_not_found' || code === 'invalid_user') return 'revoked';
  return 'expired';
}
