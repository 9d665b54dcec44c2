import type { LockManagerLike } from '../../src/index.js';

/**
 * The Web Locks API's exclusive mode for tabs that share one process (Node has no
 * `navigator.locks`): a FIFO queue per name, released when the callback settles,
 * its result handed back, and `query()` listing the held names. The browser tests
 * use the real one.
 */
export class InProcessLocks implements LockManagerLike {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly held = new Map<string, number>();
  /** How many callbacks have run under each name (for assertions). */
  readonly grants = new Map<string, number>();

  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(async () => {
      this.grants.set(name, (this.grants.get(name) ?? 0) + 1);
      this.held.set(name, (this.held.get(name) ?? 0) + 1);
      try {
        return await callback();
      } finally {
        const count = (this.held.get(name) ?? 1) - 1;
        if (count === 0) this.held.delete(name);
        else this.held.set(name, count);
      }
    });
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }

  async query(): Promise<{ held: { name: string }[] }> {
    return { held: [...this.held.keys()].map((name) => ({ name })) };
  }

  /** Names of the locks held now. */
  heldNames(): string[] {
    return [...this.held.keys()];
  }
}
