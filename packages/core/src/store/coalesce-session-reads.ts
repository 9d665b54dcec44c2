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
 * The store as it is, except `findSession`. With no read in flight a call is sent at once,
 * alone (a plain `findSession`): a request on an idle store waits for nothing, so
 * coalescing cannot cost at low concurrency. While reads are in flight, the calls made in
 * one event-loop turn wait for the end of that turn and go out as one `findSessions` per
 * `SESSION_READ_BATCH_LIMIT` ids, all at once; several batches may be in flight, and one
 * slow batch never holds the next turn's. Freshness is unchanged: a call only ever waits for
 * a read that starts after it was made, never joins one already under way, so a revocation
 * acknowledged before a request arrived is seen by that request. A failed batch rejects
 * each of its callers with the store's error, as their own read would have; each caller's
 * deadline (the store's, the request's budget) bounds its own wait. A store without
 * `findSessions` is returned as it is.
 */
export function coalesceSessionReads(
  store: SessionStore,
  batchLimit = SESSION_READ_BATCH_LIMIT,
  turnEnd: TurnEnd = turnEndScheduler(),
): SessionStore {
  if (typeof store.findSessions !== 'function') return store;
  let waiting: WaitingRead[] = [];
  let inFlight = 0;
  const landed = (): void => {
    inFlight -= 1;
  };
  const send = (batch: readonly WaitingRead[]): void => {
    inFlight += 1;
    issue(store, batch, landed);
  };
  const flush = (): void => {
    const turn = waiting;
    waiting = [];
    for (let start = 0; start < turn.length; start += batchLimit) send(turn.slice(start, start + batchLimit));
  };
  const findSession = (id: string): Promise<SessionRecord | null> => {
    if (inFlight === 0 && waiting.length === 0) {
      // The plain read, its own promise handed back as it is: no cost on an idle store.
      let read: Promise<SessionRecord | null>;
      try {
        read = store.findSession(id);
      } catch (error) {
        return Promise.reject(error);
      }
      inFlight += 1;
      read.then(landed, landed);
      return read;
    }
    return new Promise((resolve, reject) => {
      if (waiting.push({ id, resolve, reject }) === 1) turnEnd(flush);
    });
  };

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

function issue(store: SessionStore, batch: readonly WaitingRead[], landed: () => void): void {
  const [only] = batch;
  if (batch.length === 1 && only !== undefined) {
    settle(
      () => store.findSession(only.id),
      batch,
      (record) => only.resolve(record),
      landed,
    );
    return;
  }
  const ids = [...new Set(batch.map((read) => read.id))];
  const read = () => (store.findSessions as NonNullable<SessionStore['findSessions']>).call(store, ids);
  settle(
    read,
    batch,
    (found) => {
      for (const caller of batch) caller.resolve(found.get(caller.id) ?? null);
    },
    landed,
  );
}

/** Runs one read and hands its answer, or its error, to every caller of the batch. */
function settle<T>(read: () => Promise<T>, batch: readonly WaitingRead[], answer: (value: T) => void, landed: () => void): void {
  let pending: Promise<T>;
  try {
    pending = read();
  } catch (error) {
    pending = Promise.reject(error);
  }
  pending.then(
    (value) => {
      landed();
      answer(value);
    },
    (error: unknown) => {
      landed();
      for (const caller of batch) caller.reject(error);
    },
  );
}
