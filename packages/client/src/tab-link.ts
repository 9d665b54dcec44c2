import type { ChannelLike, LockManagerLike, SignOutReason } from './types.js';

/** What tabs of one origin tell each other. Tokens are access tokens only, never refresh tokens. */
export type TabMessage =
  | { readonly type: 'signed-in' | 'refreshed'; readonly token: string; readonly expiresAt: number }
  | { readonly type: 'signed-out'; readonly reason: SignOutReason }
  | { readonly type: 'token-request'; readonly id: string }
  | { readonly type: 'token-reply'; readonly id: string; readonly token: string; readonly expiresAt: number };

const REASONS: ReadonlySet<string> = new Set(['logout', 'revoked', 'reuse_detected', 'expired', 'ambiguous']);

/**
 * The link between tabs: one exclusive lock (Web Locks, shared by every tab of the
 * origin) and one BroadcastChannel. Without Web Locks the lock is a mutex inside
 * this tab only; without a channel nothing is sent or heard.
 */
export class TabLink {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<string, (reply: { token: string; expiresAt: number }) => void>();

  constructor(
    private readonly locks: LockManagerLike | null,
    private readonly channel: ChannelLike | null,
    private readonly lockName: string,
    onMessage: (message: TabMessage) => void,
  ) {
    if (channel === null) return;
    channel.onmessage = (event) => {
      const message = parseMessage(event.data);
      if (message === null) return;
      if (message.type === 'token-reply') this.waiting.get(message.id)?.(message);
      else onMessage(message);
    };
  }

  get crossTab(): boolean {
    return this.locks !== null && this.channel !== null;
  }

  /** Runs `task` while holding the lock; every tab (and every caller in this tab) queues for it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.locks !== null) return this.locks.request(this.lockName, task);
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  post(message: TabMessage): void {
    this.channel?.postMessage(message);
  }

  /** Asks the other tabs for a live access token; the first answer wins, silence means none. */
  askPeers(waitMs: number): Promise<{ token: string; expiresAt: number } | null> {
    if (this.channel === null) return Promise.resolve(null);
    const id = Math.random().toString(36).slice(2);
    return new Promise((resolve) => {
      const done = (reply: { token: string; expiresAt: number } | null): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply);
      };
      const timer = setTimeout(() => done(null), waitMs);
      this.waiting.set(id, done);
      this.post({ type: 'token-request', id });
    });
  }

  close(): void {
    if (this.channel !== null) {
      this.channel.onmessage = null;
      this.channel.close();
    }
  }
}

/** Any script of the origin can post on the channel: accept only well-formed messages. */
function parseMessage(data: unknown): TabMessage | null {
  if (data === null || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  const hasToken = typeof m.token === 'string' && typeof m.expiresAt === 'number';
  switch (m.type) {
    case 'signed-in':
    case 'refreshed':
      return hasToken ? { type: m.type, token: m.token as string, expiresAt: m.expiresAt as number } : null;
    case 'signed-out':
      return typeof m.reason === 'string' && REASONS.has(m.reason) ? { type: 'signed-out', reason: m.reason as SignOutReason } : null;
    case 'token-request':
      return typeof m.id === 'string' ? { type: 'token-request', id: m.id } : null;
    case 'token-reply':
      return hasToken && typeof m.id === 'string'
        ? { type: 'token-reply', id: m.id, token: m.token as string, expiresAt: m.expiresAt as number }
        : null;
    default:
      return null;
  }
}
