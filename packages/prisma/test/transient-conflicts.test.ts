import { StoreUnavailableError } from '@sessauth/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessauthPrismaClient } from '../src/index.js';
import { guard } from '../src/store/guard.js';
import { isTransientConflict } from '../src/store/prisma-errors.js';
import { mysqlTarget, postgresTarget, type TestDatabase } from './support/test-databases.js';

/** A promise and the function that settles it. */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire = () => {};
  const wait = new Promise<void>((resolve) => (fire = resolve));
  return { wait, fire };
}

/**
 * Two interactive transactions of one Prisma Client take two row locks in opposite orders; the
 * server picks one as the deadlock victim. Resolves to the error Prisma hands back for it.
 */
async function realDeadlockError(database: TestDatabase, table: string): Promise<unknown> {
  const locked = [signal(), signal()];
  const prisma: SessauthPrismaClient = database.prisma;
  const side = (first: 1 | 2, second: 1 | 2, mine: 0 | 1) =>
    prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`update ${table} set n = n + 1 where id = ${first}`);
        locked[mine]!.fire();
        await locked[1 - mine]!.wait;
        await tx.$executeRawUnsafe(`update ${table} set n = n + 1 where id = ${second}`);
      },
      { maxWait: 5000, timeout: 10_000 },
    );
  const outcomes = await Promise.allSettled([side(1, 2, 0), side(2, 1, 1)]);
  const victim = outcomes.find((outcome) => outcome.status === 'rejected');
  if (victim === undefined) throw new Error('no deadlock was reported');
  return victim.reason;
}

// A deadlock victim was rolled back whole (Prisma rolls the interactive transaction back): the
// store runs the call again. The error comes from a real server, through Prisma and its adapter.
for (const target of [postgresTarget, mysqlTarget]) {
  const database = await target.open();
  const table = target.provider === 'postgresql' ? `"${database?.options.schema}".deadlock` : 'deadlock';
  await database?.execute(`create table deadlock (id int primary key, n int); insert into deadlock values (1, 0), (2, 0)`);
  describe(`a call that is a ${target.label} deadlock victim`, () => {
    afterAll(async () => {
      await database?.close();
    });

    it.skipIf(database === null)('is a transient conflict: run again, it answers with its next attempt', async () => {
      const deadlock = await realDeadlockError(database!, table);
      expect(isTransientConflict(deadlock)).toBe(true);
      let attempts = 0;
      const answer = await guard('rotateRefresh', 2000, async () => {
        attempts += 1;
        if (attempts === 1) throw deadlock;
        return 'rotated';
      });
      expect(answer).toBe('rotated');
      expect(attempts).toBe(2);
    });

    it.skipIf(database === null)('is answered with StoreUnavailableError when it keeps meeting deadlocks until the deadline', async () => {
      const deadlock = await realDeadlockError(database!, table);
      let attempts = 0;
      const failure = guard('rotateRefresh', 200, async () => {
        attempts += 1;
        throw deadlock;
      });
      await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(attempts).toBeGreaterThan(1);
    });
  });
}

describe('a call that fails for another reason', () => {
  it('is not run again', async () => {
    let attempts = 0;
    const failure = guard('rotateRefresh', 2000, async () => {
      attempts += 1;
      throw Object.assign(new Error('Unique constraint failed'), { code: 'P2002' });
    });
    await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(attempts).toBe(1);
  });
});
