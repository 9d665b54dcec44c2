import type { AccessToken } from './access-token.js';
import type { Emitter } from './events.js';
import type { ClientStatus, EventSource, SignOutReason } from './types.js';

/**
 * What this tab knows: its access token (memory only) and whether it is signed in.
 * Every change goes through here, so the events always match the state.
 */
export class SessionState {
  token: AccessToken | null = null;
  status: ClientStatus = 'unknown';
  /** Why the last sign-out happened; `null` while signed in or never decided. */
  reason: SignOutReason | null = null;

  constructor(
    private readonly emitter: Emitter,
    private readonly onChange: () => void,
  ) {}

  /** A token from a login (here or in another tab) starts a session. */
  signIn(token: AccessToken, source: EventSource): void {
    this.set(token);
    this.emitter.emit('signed-in', { via: source === 'this-tab' ? 'login' : 'other-tab', expiresAt: new Date(token.expiresAt) });
    this.onChange();
  }

  /** A refreshed (or another tab's) token for the current session. */
  renew(token: AccessToken, source: EventSource): void {
    const wasSignedIn = this.status === 'signed-in';
    this.set(token);
    const expiresAt = new Date(token.expiresAt);
    if (wasSignedIn) this.emitter.emit('refreshed', { source, expiresAt });
    else this.emitter.emit('signed-in', { via: source === 'this-tab' ? 'restore' : 'other-tab', expiresAt });
    this.onChange();
  }

  /**
   * Forgets the token. Returns false when already signed out. A tab that never had
   * a session (status `unknown`) and finds none says nothing; a reuse or an
   * ambiguous outcome is always reported.
   */
  signOut(reason: SignOutReason, source: EventSource): boolean {
    if (this.status === 'signed-out') return false;
    const quiet = this.status === 'unknown' && reason !== 'reuse_detected' && reason !== 'ambiguous';
    this.token = null;
    this.status = 'signed-out';
    this.reason = reason;
    if (!quiet) this.emitter.emit('signed-out', { reason, source });
    this.onChange();
    return true;
  }

  private set(token: AccessToken): void {
    this.token = token;
    this.status = 'signed-in';
    this.reason = null;
  }
}
