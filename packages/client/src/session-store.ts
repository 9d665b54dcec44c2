import type { ClientStatus } from './types.js';
import type { SessauthClient } from './session-client.js';

/** What `useSession()` gives a component: the client's status and session, as of its last event. */
export interface SessionSnapshot {
  /** `unknown` until `restore()` or `login()` decided. */
  readonly status: ClientStatus;
  /** The current session's id (the row of "this device" in `listSessions()`), or null. */
  readonly sessionId: string | null;
  /** When the current access token expires, or null. */
  readonly expiresAt: Date | null;
}

/** The part of the client a view binding reads: its events and its state (a type, so no second copy of the client ships). */
export type SessionSource = Pick<SessauthClient, 'on' | 'status' | 'sessionId' | 'expiresAt'>;

/** One subscription point per client, as `useSyncExternalStore` (and a Vue ref) want it. */
export interface SessionStore {
  subscribe(onChange: () => void): () => void;
  /** The same object until the client's state changes (React compares snapshots by identity). */
  getSnapshot(): SessionSnapshot;
}

const stores = new WeakMap<SessionSource, SessionStore>();

/** The store of `client`, made once: every component of a page shares it. */
export function sessionStoreOf(client: SessionSource): SessionStore {
  let store = stores.get(client);
  if (store === undefined) stores.set(client, (store = createSessionStore(client)));
  return store;
}

function createSessionStore(client: SessionSource): SessionStore {
  let snapshot = read(client);
  // One listener set and one subscription to the client per store: an event updates the
  // snapshot once and then tells every component. A comparison per subscriber would let the
  // first one move the shared snapshot and the others see no change.
  const listeners = new Set<() => void>();
  let offs: (() => void)[] = [];
  /** Moves the snapshot to the client's state; true when it changed (a new object then). */
  const refresh = (): boolean => {
    const next = read(client);
    if (next.status === snapshot.status && next.sessionId === snapshot.sessionId && next.expiresAt?.getTime() === snapshot.expiresAt?.getTime())
      return false;
    snapshot = next;
    return true;
  };
  const changed = (): void => {
    if (!refresh()) return;
    for (const listener of [...listeners]) listener();
  };
  return {
    subscribe(onChange) {
      if (listeners.size === 0) offs = [client.on('signed-in', changed), client.on('refreshed', changed), client.on('signed-out', changed)];
      listeners.add(onChange);
      // A change between the first render and this subscription is not missed: every
      // listener hears it, since each rendered the snapshot from before the change.
      changed();
      return () => {
        if (!listeners.delete(onChange) || listeners.size > 0) return;
        for (const off of offs) off();
        offs = [];
      };
    },
    getSnapshot: () => {
      // Read fresh each time so a state set before any subscription shows, but keep the identity when equal.
      refresh();
      return snapshot;
    },
  };
}

function read(client: SessionSource): SessionSnapshot {
  return { status: client.status, sessionId: client.sessionId, expiresAt: client.expiresAt };
}
