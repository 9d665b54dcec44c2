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
  return {
    subscribe(onChange) {
      const changed = (): void => {
        const next = read(client);
        if (next.status === snapshot.status && next.sessionId === snapshot.sessionId && next.expiresAt?.getTime() === snapshot.expiresAt?.getTime())
          return;
        snapshot = next;
        onChange();
      };
      const offs = [client.on('signed-in', changed), client.on('refreshed', changed), client.on('signed-out', changed)];
      // A change between the first render and this subscription is not missed.
      changed();
      return () => {
        for (const off of offs) off();
      };
    },
    getSnapshot: () => {
      const next = read(client);
      // Read fresh each time so a state set before any subscription shows, but keep the identity when equal.
      if (next.status !== snapshot.status || next.sessionId !== snapshot.sessionId || next.expiresAt?.getTime() !== snapshot.expiresAt?.getTime()) {
        snapshot = next;
      }
      return snapshot;
    },
  };
}

function read(client: SessionSource): SessionSnapshot {
  return { status: client.status, sessionId: client.sessionId, expiresAt: client.expiresAt };
}
