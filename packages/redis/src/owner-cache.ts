/**
 * A bounded LRU map from session id to owning user id. Ownership never changes for
 * the life of an id, so this caches no state that revocation could make stale (the
 * session itself is read from Redis on every call). It lets `findSession` go
 * straight to the user's hash in one round trip instead of reading the owner
 * pointer first. A wrong entry (an id purged and re-created for someone else) only
 * costs a miss: the store then falls back to the pointer.
 */
export class OwnerCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  get(sessionId: string): string | undefined {
    const owner = this.entries.get(sessionId);
    if (owner !== undefined) {
      // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
      this.entries.delete(sessionId);
      this.entries.set(sessionId, owner);
    }
    return owner;
  }

  set(sessionId: string, owner: string): void {
    if (this.capacity <= 0) return;
    this.entries.delete(sessionId);
    this.entries.set(sessionId, owner);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  delete(sessionId: string): void {
    this.entries.delete(sessionId);
  }
}
