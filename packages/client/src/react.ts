import { useSyncExternalStore } from 'react';
import { type SessionSnapshot, type SessionSource, sessionStoreOf } from './session-store.js';

export type { SessionSnapshot } from './session-store.js';

/**
 * The client's session for a React component: `{ status, sessionId, expiresAt }`, re-rendered on the
 * client's `signed-in`, `refreshed` and `signed-out` events (through `useSyncExternalStore`, so every
 * component of a render sees the same value). Pass the one client of the page.
 */
export function useSession(client: SessionSource): SessionSnapshot {
  const store = sessionStoreOf(client);
  // The server has no session of the browser's: a server render shows the state as `unknown`.
  return useSyncExternalStore(store.subscribe, store.getSnapshot, serverSnapshot);
}

const SERVER_SNAPSHOT: SessionSnapshot = { status: 'unknown', sessionId: null, expiresAt: null };

function serverSnapshot(): SessionSnapshot {
  return SERVER_SNAPSHOT;
}
