import type { RotateOutcome, RotateRefreshInput } from '@sessauth/core/store';
import { eq } from 'drizzle-orm';
import { finalOutcome, rotateValues, swapOutcome } from './rotate-outcome.js';
import type { SessionRow } from './session-row.js';
import type { StoreContext } from './store-context.js';

/**
 * The refresh compare-and-swap: one conditional UPDATE on id, owner, live expiry, stamp,
 * current jti and (idle timeout on) recent activity. Only when it changes no row do we say
 * why. Most misses are on sessions that are over already (the other racers of a replay, a
 * token of a revoked session); those states never change back, so a plain read settles them
 * with no transaction and no lock, and a storm of replays does not queue on one row. Only an
 * active session is locked, re-checked and revoked (or swapped) inside a transaction, which
 * commits before the outcome is returned.
 */
export async function rotateRefresh(ctx: StoreContext, input: RotateRefreshInput): Promise<RotateOutcome> {
  const values = rotateValues(input);
  const swapped = await ctx.engine.swap(values);
  if (swapped !== 'no_swap') return swapOutcome(swapped);
  const [row] = await ctx.engine.db.select<SessionRow>().from(ctx.t).where(eq(ctx.t.id, values.id));
  return finalOutcome(row, values) ?? ctx.engine.settleLocked(values);
}
