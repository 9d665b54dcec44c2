import type { SessauthClientEventName, SessauthClientEvents } from './types.js';

export type Listener<K extends SessauthClientEventName> = (event: SessauthClientEvents[K]) => void;

/** A tiny typed emitter. A throwing listener is reported, never allowed to break the client. */
export class Emitter {
  private readonly listeners = new Map<SessauthClientEventName, Set<(event: never) => void>>();

  on<K extends SessauthClientEventName>(type: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(type);
    if (set === undefined) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends SessauthClientEventName>(type: K, event: SessauthClientEvents[K]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      try {
        (listener as Listener<K>)(event);
      } catch (error) {
        // Surface it as an uncaught error (console, error trackers) without unwinding our state change.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
