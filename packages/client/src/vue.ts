import { getCurrentScope, onScopeDispose, type Ref, readonly, shallowRef } from 'vue';
import { type SessionSnapshot, type SessionSource, sessionStoreOf } from './session-store.js';

export type { SessionSnapshot } from './session-store.js';

/** What `useSession()` gives a Vue component: read-only refs, updated on the client's events. */
export interface SessionRefs {
  readonly status: Readonly<Ref<SessionSnapshot['status']>>;
  readonly sessionId: Readonly<Ref<string | null>>;
  readonly expiresAt: Readonly<Ref<Date | null>>;
}

/**
 * The client's session for a Vue component (or any effect scope): refs of `status`, `sessionId` and
 * `expiresAt`, updated on the client's `signed-in`, `refreshed` and `signed-out` events. The
 * subscription ends with the scope (the component's unmount); outside a scope it lasts as long as the page.
 */
export function useSession(client: SessionSource): SessionRefs {
  const store = sessionStoreOf(client);
  const first = store.getSnapshot();
  const status = shallowRef(first.status);
  const sessionId = shallowRef(first.sessionId);
  const expiresAt = shallowRef(first.expiresAt);
  const update = (): void => {
    const next = store.getSnapshot();
    status.value = next.status;
    sessionId.value = next.sessionId;
    expiresAt.value = next.expiresAt;
  };
  const unsubscribe = store.subscribe(update);
  // Another component may have moved the shared snapshot between `first` and the subscription.
  update();
  if (getCurrentScope() !== undefined) onScopeDispose(unsubscribe);
  return { status: readonly(status), sessionId: readonly(sessionId), expiresAt: readonly(expiresAt) };
}
