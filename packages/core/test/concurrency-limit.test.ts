import { describe, expect, it } from 'vitest';
import { availableCpus, limitConcurrency } from '../src/password/concurrency-limit.js';

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
});
