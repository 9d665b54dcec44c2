import type { RotateOutcome, RotateRefreshInput } from '@sessauth/core/store';
import { finalOutcome, lockedDecision, type RotateValues, rotateValues } from './rotate-outcome.js';
import { notRevoked, revokeAt } from './session-writes.js';
import type { ClientContext } from './store-context.js';
import { swap } from './swap.js';

/**
 * The refresh compare-and-swap: one conditional UPDATE on id, owner, live expiry, stamp, current
 * jti and (idle timeout on) recent activity. Only when it changes no row do we say why. Most
 * misses are on sessions that are over already (the other racers of a replay, a token of a
 * revoked session); those states never change back, so a plain read settles them with no
 * transaction and no lock. Only an active session is locked, re-checked and revoked (or swapped)
 * in a transaction, which commits before the outcome is returned.
 */
export async function rotateRefresh(ctx: ClientContext, input: RotateRefreshInput): Promise<RotateOutcome> {
  const values = rotateValues(input);
  const swapped = await swap(ctx.client, ctx.sql, values);
  if (swapped !== 'no_swap') return swapped === null ? { status: 'expired' } : { status: 'consumed', session: swapped };
  const row = await ctx.client.sessauthSession.findUnique({ where: { id: values.id } });
  return finalOutcome(row, values) ?? settleLocked(ctx, values);
}

function settleLocked(ctx: ClientContext, values: RotateValues): Promise<RotateOutcome> {
  return Promise.resolve(
    ctx.client.$transaction(async (tx): Promise<RotateOutcome> => {
      await ctx.sql.lockSession(tx, ctx.names, values.id);
      const row = await tx.sessauthSession.findUnique({ where: { id: values.id } });
      const settled = finalOutcome(row, values);
      if (settled !== null || row === null) return settled ?? { status: 'missing' };
      const decision = lockedDecision(row, values);
      if (decision === 'swap') {
        const swapped = await swap(tx, ctx.sql, values);
        if (swapped !== 'no_swap' && swapped !== null) return { status: 'consumed', session: swapped };
        // Only where no row lock is taken (SQLite: another statement on the adapter's one
        // connection): another caller consumed this very jti between the read and the swap.
        // That caller holds the one `consumed`; this one is a reuse, and reuse revokes.
      }
      await tx.sessauthSession.updateMany({ where: notRevoked(values.id), data: revokeAt(values.now) });
      return { status: decision === 'swap' ? 'reused' : decision };
    }, ctx.transaction),
  );
}
