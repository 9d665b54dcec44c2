import type { ChannelLike, LockManagerLike, SignOutReason } from './types.js';

/**
 * What tabs of one origin tell each other. `gen` is the origin-wide generation of
 * the session state (it grows by one at every login, refresh and sign-out), so a
 * tab takes news only when it is newer than what it holds. Tokens are access
 * tokens only, never refresh tokens.
 */
export type TabMessage =
  | {
      readonly type: 'signed-in' | 'refreshed' | 'token-reply';
      readonly token: string;
      readonly expiresAt: number;
      readonly gen: number;
      readonly id?: string;
    }
  | { readonly type: 'signed-out'; readonly reason: SignOutReason; readonly gen: number }
  | { readonly type: 'token-request'; readonly id: string };

export type TokenNews = Extract<TabMessage, { token: string }>;

/** The latest state some live tab published: signed in, or signed out and why. */
export interface PublishedState {
  readonly gen: number;
  readonly signedOut: SignOutReason | null;
}

const REASONS: ReadonlySet<string> = new Set(['logout', 'revoked', 'reuse_detected', 'expired', 'ambiguous']);

/**
 * The link between tabs: the origin-wide lock, the published state and the channel.
 *
 * BroadcastChannel messages and lock grants travel separately, so a tab can be
 * granted the lock before it heard what the previous holder broadcast. The state
 * is therefore also published through the lock manager itself: the tab that
 * changes it holds a marker lock named after the new generation (taken before it
 * releases the refresh lock), and the next holder reads the markers with
 * `navigator.locks.query()`, which answers in step with the grants.
 */
export class TabLink {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<string, (reply: TokenNews) => void>();
  private releaseMarker: (() => void) | null = null;
  private markerGen = -1;
  private readonly markerPrefix: string;
  private readonly tabId = Math.random().toString(36).slice(2);

  constructor(
    private readonly locks: LockManagerLike | null,
    private readonly channel: ChannelLike | null,
    private readonly lockName: string,
    onMessage: (message: TabMessage) => void,
  ) {
    this.markerPrefix = `${lockName}|state|`;
    if (channel === null) return;
    channel.onmessage = (event) => {
      const message = parseMessage(event.data);
      if (message === null) return;
      if (message.type === 'token-reply') this.waiting.get(message.id ?? '')?.(message);
      else onMessage(message);
    };
  }

  get crossTab(): boolean {
    return this.locks !== null && this.channel !== null;
  }

  /** Runs `task` holding the lock; every tab (and every caller in this tab) queues for it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.locks !== null) return this.locks.request(this.lockName, task);
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** With the lock held: the newest state a live tab published; `undefined` where locks cannot be queried. */
  async readPublished(): Promise<PublishedState | null | undefined> {
    if (this.locks?.query === undefined || this.channel === null) return undefined;
    const snapshot = await this.locks.query();
    let latest: PublishedState | null = null;
    for (const { name } of snapshot.held ?? []) {
      if (name?.startsWith(this.markerPrefix) !== true) continue;
      const [gen, state] = name.slice(this.markerPrefix.length).split('|');
      const parsed = { gen: Number(gen), signedOut: state !== undefined && REASONS.has(state) ? (state as SignOutReason) : null };
      if (Number.isSafeInteger(parsed.gen) && (latest === null || parsed.gen > latest.gen)) latest = parsed;
    }
    return latest;
  }

  /**
   * Publishes generation `gen`: under the lock by the tab that made it (before the
   * lock is released), and by every tab that learns of it, so the news outlives the
   * tab that made it. Each tab holds one marker, its newest.
   */
  async publish(gen: number, signedOut: SignOutReason | null): Promise<void> {
    if (this.locks?.query === undefined || this.channel === null || gen <= this.markerGen) return;
    this.markerGen = gen;
    const name = `${this.markerPrefix}${gen}|${signedOut ?? 'in'}|${this.tabId}`;
    const locks = this.locks;
    const release = await new Promise<() => void>((granted) => {
      void locks.request(name, () => new Promise<void>((done) => granted(done)));
    });
    if (this.markerGen !== gen) return release(); // a newer one came meanwhile
    this.releaseMarker?.();
    this.releaseMarker = release;
  }

  post(message: TabMessage): void {
    this.channel?.postMessage(message);
  }

  /** Asks the other tabs for a live access token; the first answer wins, silence means none. */
  askPeers(waitMs: number): Promise<TokenNews | null> {
    if (this.channel === null) return Promise.resolve(null);
    const id = `${this.tabId}-${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve) => {
      const done = (reply: TokenNews | null): void => {
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
    this.releaseMarker?.();
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
  const gen = typeof m.gen === 'number' && Number.isSafeInteger(m.gen) ? m.gen : null;
  switch (m.type) {
    case 'signed-in':
    case 'refreshed':
    case 'token-reply':
      if (typeof m.token !== 'string' || typeof m.expiresAt !== 'number' || gen === null) return null;
      return { type: m.type, token: m.token, expiresAt: m.expiresAt, gen, ...(typeof m.id === 'string' ? { id: m.id } : {}) };
    case 'signed-out':
      return typeof m.reason === 'string' && REASONS.has(m.reason) && gen !== null
        ? { type: 'signed-out', reason: m.reason as SignOutReason, gen }
        : null;
    case 'token-request':
      return typeof m.id === 'string' ? { type: 'token-request', id: m.id } : null;
    default:
      return null;
  }
}
