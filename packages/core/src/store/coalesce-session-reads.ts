import type { SessionRecord, SessionStore } from './store-port.js';

/** Ids per batched read: one statement's parameter list, one pipeline's length. */
export const SESSION_READ_BATCH_LIMIT = 64;

interface WaitingRead {
  readonly id: string;
  readonly resolve: (record: SessionRecord | null) => void;
  readonly reject: (error: unknown) => void;
}

type TurnEnd = (flush: () => void) => void;

/**
 * Where the runtime has it (Node, Bun), `setImmediate`: it runs after the I/O callbacks of
 * this loop turn, so the reads of every request that arrived in the turn meet there.
 * Elsewhere a microtask, which adds no wait and coalesces only what one task asked.
 */
function turnEndScheduler(): TurnEnd {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return (flush) => void immediate(flush);
  return (flush) => queueMicrotask(flush);
}

/**
 * The store as it is, except `findSession`: the calls made in one event-loop turn are
 * answered by one `findSessions` per `SESSION_READ_BATCH_LIMIT` ids, all sent at once
 * (one slow batch never holds the next turn's, which goes out on its own). Freshness is
 * unchanged: a call only ever waits for a read that starts after it was made (the end of
 * its own turn), never joins one already under way, so a revocation acknowledged before a
 * request arrived is seen by that request. A batch of one is a plain `findSession`. A failed
 * batch rejects each of its callers with the store's error, as their own read would have;
 * each caller's deadline (the store's, the request's budget) bounds its own wait. A store
 * without `findSessions` is returned as it is.
 */
export function coalesceSessionReads(
  store: SessionStore,
  batchLimit = SESSION_READ_BATCH_LIMIT,
  turnEnd: TurnEnd = turnEndScheduler(),
): SessionStore {
  if (typeof store.findSessions !== 'function') return store;
  let waiting: WaitingRead[] = [];

  const flush = (): void => {
    const turn = waiting;
    waiting = [];
    for (let start = 0; start < turn.length; start += batchLimit) issue(store, turn.slice(start, start + batchLimit));
  };
  const findSession = (id: string): Promise<SessionRecord | null> =>
    new Promise((resolve, reject) => {
      if (waiting.push({ id, resolve, reject }) === 1) turnEnd(flush);
    });

  // Every other member is the store's own, bound to it (class stores keep private fields).
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key) {
      if (key === 'findSession') return findSession;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) bound.set(key, (method = (value as (...args: unknown[]) => unknown).bind(target)));
      return method;
    },
  });
}

function issue(store: SessionStore, batch: readonly WaitingRead[]): void {
  const [only] = batch;
  if (batch.length === 1 && only !== undefined) {
    settle(
      () => store.findSession(only.id),
      batch,
      (record) => only.resolve(record),
    );
    return;
  }
  const ids = [...new Set(batch.map((read) => read.id))];
  settle(
    () => (store.findSessions as NonNullable<SessionStore['findSessions']>).call(store, ids),
    batch,
    (found) => {
      for (const read of batch) read.resolve(found.get(read.id) ?? null);
    },
  );
}

/** Runs one read and hands its answer, or its error, to every caller of the batch. */
function settle<T>(read: () => Promise<T>, batch: readonly WaitingRead[], answer: (value: T) => void): void {
  let pending: Promise<T>;
  try {
    pending = read();
  } catch (error) {
    pending = Promise.reject(error);
  }
  pending.then(answer, (error: unknown) => {
    for (const caller of batch) caller.reject(error);
  });
}
