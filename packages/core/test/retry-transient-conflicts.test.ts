import { describe, expect, it } from 'vitest';
import { retryTransientConflicts } from '../src/store/retry-transient-conflicts.js';

class Busy extends Error {}
const isBusy = (error: unknown) => error instanceof Busy;

describe("retryTransientConflicts (the stores' retry of a call that changed nothing)", () => {
  it('runs the call again after a transient conflict and answers its first success', async () => {
    let calls = 0;
    const value = await retryTransientConflicts(
      async () => {
        calls += 1;
        if (calls < 4) throw new Busy('locked');
        return 'written';
      },
      Date.now() + 1000,
      isBusy,
    );
    expect(value).toBe('written');
    expect(calls).toBe(4);
  });

  it('throws any other error at once, without running the call again', async () => {
    let calls = 0;
    const failure = new Error('constraint');
    await expect(
      retryTransientConflicts(
        async () => {
          calls += 1;
          throw failure;
        },
        Date.now() + 1000,
        isBusy,
      ),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it('gives up with the conflict itself once a pause would pass the deadline', async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      retryTransientConflicts(
        async () => {
          calls += 1;
          throw new Busy(`locked ${calls}`);
        },
        started + 60,
        isBusy,
      ),
    ).rejects.toBeInstanceOf(Busy);
    // Pauses of about 1, 2, 4, 8 ms fit before the deadline, then none does.
    expect(calls).toBeGreaterThan(2);
  });

  it('does not pause at all when the deadline has passed', async () => {
    let calls = 0;
    await expect(
      retryTransientConflicts(
        async () => {
          calls += 1;
          throw new Busy('locked');
        },
        Date.now() - 1,
        isBusy,
      ),
    ).rejects.toBeInstanceOf(Busy);
    expect(calls).toBe(1);
  });
});
