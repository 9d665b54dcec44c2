import { describe, expect, it } from 'vitest';
import { RequestAbortedError } from '../src/errors/sessauth-error.js';
import { availableCpus, HasherBusyError, limitConcurrency } from '../src/password/concurrency-limit.js';

/** A task the test finishes by hand, recording how many ran at once. */
function gate() {
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  const finishers = new Map<number, { resolve: (v: number) => void; reject: (e: Error) => void }>();
  const task = (id: number) => () => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    started.push(id);
    return new Promise<number>((resolve, reject) => {
      finishers.set(id, {
        resolve: (v) => {
          inFlight -= 1;
          resolve(v);
        },
        reject: (e) => {
          inFlight -= 1;
          reject(e);
        },
      });
    });
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { task, started, finishers, settle, most: () => most };
}

describe('limitConcurrency', () => {
  it('runs at most max tasks at once, the rest in arrival order', async () => {
    const inTurn = limitConcurrency(2);
    const g = gate();
    const results = [1, 2, 3, 4, 5].map((id) => inTurn(g.task(id)));
    await g.settle();
    expect(g.started).toEqual([1, 2]);
    g.finishers.get(2)!.resolve(20);
    await g.settle();
    expect(g.started).toEqual([1, 2, 3]);
    g.finishers.get(1)!.resolve(10);
    g.finishers.get(3)!.resolve(30);
    await g.settle();
    expect(g.started).toEqual([1, 2, 3, 4, 5]);
    g.finishers.get(4)!.resolve(40);
    g.finishers.get(5)!.resolve(50);
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30, 40, 50]);
    expect(g.most()).toBe(2);
  });

  it('frees the place of a task that rejects or throws, and passes its error on', async () => {
    const inTurn = limitConcurrency(1);
    const g = gate();
    const failing = inTurn(g.task(1));
    const throwing = inTurn(() => {
      throw new Error('sync');
    });
    const last = inTurn(g.task(3));
    await g.settle();
    expect(g.started).toEqual([1]);
    g.finishers.get(1)!.reject(new Error('async'));
    await expect(failing).rejects.toThrow('async');
    await expect(throwing).rejects.toThrow('sync');
    await g.settle();
    expect(g.started).toEqual([1, 3]);
    g.finishers.get(3)!.resolve(3);
    await expect(last).resolves.toBe(3);
    expect(g.most()).toBe(1);
  });

  it('refuses a bound that is not a positive integer', () => {
    for (const max of [0, -1, 1.5, Number.NaN]) expect(() => limitConcurrency(max)).toThrow(RangeError);
  });

  it('reads the CPU count of the process', () => {
    expect(availableCpus()).toBeGreaterThanOrEqual(1);
    expect(Number.isSafeInteger(availableCpus())).toBe(true);
  });

  it('refuses at once when the waiting line is full: 429 login_busy with Retry-After', async () => {
    const inTurn = limitConcurrency(1, { maxWaiting: 2, maxWaitMs: 3000 });
    const g = gate();
    const running = inTurn(g.task(1));
    const waiting = [inTurn(g.task(2)), inTurn(g.task(3))];
    const refused = inTurn(g.task(4));
    await expect(refused).rejects.toBeInstanceOf(HasherBusyError);
    await expect(refused).rejects.toMatchObject({ code: 'login_busy', status: 429, retryAfter: 3 });
    g.finishers.get(1)!.resolve(1);
    await g.settle();
    g.finishers.get(2)!.resolve(2);
    await g.settle();
    g.finishers.get(3)!.resolve(3);
    await expect(Promise.all([running, ...waiting])).resolves.toEqual([1, 2, 3]);
    expect(g.started).toEqual([1, 2, 3]);
  });

  it('drops a task that waited maxWaitMs, before it runs, and passes its place on', async () => {
    const inTurn = limitConcurrency(1, { maxWaitMs: 30 });
    const g = gate();
    const running = inTurn(g.task(1));
    const stale = inTurn(g.task(2));
    await expect(stale).rejects.toBeInstanceOf(HasherBusyError);
    const fresh = inTurn(g.task(3));
    g.finishers.get(1)!.resolve(1);
    await g.settle();
    expect(g.started).toEqual([1, 3]);
    g.finishers.get(3)!.resolve(3);
    await expect(Promise.all([running, fresh])).resolves.toEqual([1, 3]);
  });

  it('drops a waiting task whose caller went away (its signal aborted), and never runs one aborted before', async () => {
    const inTurn = limitConcurrency(1, { maxWaiting: 10 });
    const g = gate();
    const running = inTurn(g.task(1));
    const leaving = new AbortController();
    const gone = inTurn(g.task(2), { signal: leaving.signal });
    const next = inTurn(g.task(3));
    leaving.abort();
    await expect(gone).rejects.toBeInstanceOf(RequestAbortedError);
    await expect(inTurn(g.task(4), { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
    g.finishers.get(1)!.resolve(1);
    await g.settle();
    g.finishers.get(3)!.resolve(3);
    await expect(Promise.all([running, next])).resolves.toEqual([1, 3]);
    expect(g.started).toEqual([1, 3]);
  });
});

describe('limitConcurrency onTurn', () => {
  it('tells each task that ran its wait and run time, not a refused one, and ignores an observer that throws', async () => {
    const turns: Array<{ waitMs: number; runMs: number }> = [];
    const inTurn = limitConcurrency(1, {
      maxWaiting: 1,
      onTurn: (turn) => {
        turns.push(turn);
        throw new Error('observer fault');
      },
    });
    const g = gate();
    const first = inTurn(g.task(1));
    const second = inTurn(g.task(2));
    // The line holds one: the third is refused before it runs.
    await expect(inTurn(g.task(3))).rejects.toBeInstanceOf(HasherBusyError);
    await g.settle();
    g.finishers.get(1)!.resolve(1);
    await expect(first).resolves.toBe(1);
    await g.settle();
    g.finishers.get(2)!.resolve(2);
    await expect(second).resolves.toBe(2);
    expect(turns).toHaveLength(2);
    for (const turn of turns) {
      expect(turn.waitMs).toBeGreaterThanOrEqual(0);
      expect(turn.runMs).toBeGreaterThanOrEqual(0);
    }
  });
});
