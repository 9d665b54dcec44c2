import type { AccessToken } from './access-token.js';
import type { Emitter } from './events.js';
import type { ClientStatus, TabSource, SignOutReason } from './types.js';

/**
 * What this tab knows: its access token (memory only), whether it is signed in,
 * and the origin-wide generation of that knowledge (see `TabLink`). Every change
 * goes through here, so the events always match the state.
 */
export class SessionState {
  token: AccessToken | null = null;
  status: ClientStatus = 'unknown';
  /** Why the last sign-out happened; `null` while signed in or never decided. */
  reason: SignOutReason | null = null;
  generation = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly emitter: Emitter,
    private readonly onChange: () => void,
  ) {}

  /** A token from a login (here or in another tab) starts a session. */
  signIn(token: AccessToken, source: TabSource, gen: number): void {
    this.set(token, gen);
    this.emitter.emit('signed-in', { via: source === 'this-tab' ? 'login' : 'other-tab', expiresAt: new Date(token.expiresAt) });
    this.changed();
  }

  /** A refreshed (or another tab's) token for the current session. */
  renew(token: AccessToken, source: TabSource, gen: number): void {
    const wasSignedIn = this.status === 'signed-in';
    this.set(token, gen);
    const expiresAt = new Date(token.expiresAt);
    if (wasSignedIn) this.emitter.emit('refreshed', { source, expiresAt });
    else this.emitter.emit('signed-in', { via: source === 'this-tab' ? 'restore' : 'other-tab', expiresAt });
    this.changed();
  }

  /**
   * Forgets the token. Returns false when already signed out. A tab that never had
   * a session (status `unknown`) and finds none says nothing; a reuse or an
   * ambiguous outcome is always reported.
   */
  signOut(reason: SignOutReason, source: TabSource, gen: number): boolean {
    this.generation = Math.max(this.generation, gen);
    if (this.status === 'signed-out') {
      for (const waiter of [...this.waiters]) waiter();
      return false;
    }
    const quiet = this.status === 'unknown' && reason !== 'reuse_detected' && reason !== 'ambiguous';
    this.token = null;
    this.status = 'signed-out';
    this.reason = reason;
    if (!quiet) this.emitter.emit('signed-out', { reason, source });
    this.changed();
    return true;
  }

  /** Resolves once the state reached generation `gen`, or after `ms`. */
  reached(gen: number, ms: number): Promise<void> {
    if (this.generation >= gen) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.generation < gen) return;
        done();
      };
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(check);
    });
  }

  private set(token: AccessToken, gen: number): void {
    this.token = token;
    this.status = 'signed-in';
    this.reason = null;
    this.generation = Math.max(this.generation, gen);
  }

  private changed(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.onChange();
  }
}
