import type { RotateOutcome } from '@sessauth/core/store';
import { and, inArray, isNull } from 'drizzle-orm';
import { activeOf, notRevoked, type RotateValues } from './conditions.js';
import type { QueryDb, SessionEngine } from './engine.js';
import { type ActiveKey, oldestBeyondCap } from './login-cap.js';
import { finalOutcome, lockedDecision, type SwapResult } from './rotate-outcome.js';
import type { SessionRow } from './session-row.js';
import type { ActivityTable, SessionTable } from './tables.js';
import { insertAndTrim } from './insert-activity.js';

/** The steps PostgreSQL and MySQL take their own way, inside a transaction of theirs. */
export interface AsyncEngineSteps<Tx> {
  readonly session: SessionTable;
  readonly activity: ActivityTable;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** The transaction as the shared builder surface. */
  builders(tx: Tx): QueryDb;
  /** Serialises the logins of one user until the transaction ends, also before the user's first row exists. */
  lockUser(tx: Tx, userId: string): Promise<void>;
  /** The session row, locked until the transaction ends. */
  readForUpdate(tx: Tx, id: string): Promise<SessionRow | undefined>;
  swap(tx: Tx, values: RotateValues): Promise<SwapResult>;
}

/** The two transactions of a server engine (a pool of connections, row locks), built from its steps. */
export function asyncTransactions<Tx>(steps: AsyncEngineSteps<Tx>): Pick<SessionEngine, 'insertWithinCap' | 'settleLocked' | 'appendActivity'> {
  const t = steps.session;
  return {
    insertWithinCap: (row, cap) =>
      steps.transaction(async (tx) => {
        await steps.lockUser(tx, row.userId);
        const db = steps.builders(tx);
        const active = await db
          .select<ActiveKey>({ id: t.id, createdAt: t.createdAt })
          .from(t)
          .where(activeOf(t, row.userId, row.createdAt));
        const evicted = oldestBeyondCap(active, row, cap);
        const others = evicted.filter((id) => id !== row.id);
        if (others.length > 0)
          await db
            .update(t)
            .set({ expiredAt: row.createdAt })
            .where(and(inArray(t.id, others), isNull(t.expiredAt)));
        const stored = evicted.length === others.length ? row : { ...row, expiredAt: row.createdAt };
        await db.insert(t).values({ ...stored });
        return stored;
      }),

    appendActivity: (userId, rows, max) =>
      steps.transaction(async (tx) => {
        // The user's lock serialises appends to one session: two READ COMMITTED
        // transactions would each trim without seeing the other's rows.
        await steps.lockUser(tx, userId);
        await insertAndTrim(steps.builders(tx), steps.activity, rows, max);
      }),

    settleLocked: (values) =>
      steps.transaction(async (tx): Promise<RotateOutcome> => {
        const row = await steps.readForUpdate(tx, values.id);
        const settled = finalOutcome(row, values);
        if (settled !== null || row === undefined) return settled ?? { status: 'missing' };
        const decision = lockedDecision(row, values);
        if (decision !== 'swap') {
          await steps.builders(tx).update(t).set({ expiredAt: values.now }).where(notRevoked(t, values.id));
          return { status: decision };
        }
        // Everything matches under the lock (the first UPDATE cannot normally miss such a row).
        const swapped = await steps.swap(tx, values);
        if (swapped === 'no_swap' || swapped === null) throw new Error('rotate: locked row did not swap');
        return { status: 'consumed', session: swapped };
      }),
  };
}
