import type { LockManagerLike } from '../../src/index.js';

/**
 * The Web Locks API's exclusive mode for tabs that share one process (Node has no
 * `navigator.locks`): a FIFO queue per name, released when the callback settles,
 * its result handed back. The browser tests use the real one.
 */
export class InProcessLocks implements LockManagerLike {
  private readonly tails = new Map<string, Promise<unknown>>();
  /** How many callbacks have run under each name (for assertions). */
  readonly grants = new Map<string, number>();

  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(() => {
      this.grants.set(name, (this.grants.get(name) ?? 0) + 1);
      return callback();
    });
    this.tails.set(name, run.catch(() => undefined));
    return run;
  }
}
