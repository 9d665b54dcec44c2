import type { SessionRecord } from '@sessauth/core';
import type { RotateOutcome, RotateRefreshInput } from '@sessauth/core/store';
import type { Kysely, QueryResult } from 'kysely';
import type { SessionDb } from './schema.js';
import { isActiveRow, toRecord, type SessionRow } from './session-row.js';
import { affectedRows, type StoreContext } from './store-context.js';
import { runInOneTrip } from './one-trip.js';

interface RotateValues {
  readonly id: string;
  readonly userId: string;
  readonly presentedJti: string;
  readonly nextJti: string;
  readonly stamp: string;
  readonly now: number;
  /** Epoch ms of the idle cutoff; -1 when the idle timeout is off. */
  readonly idleCutoff: number;
}

/**
 * The refresh compare-and-swap: one conditional UPDATE on id, user, live expiry,
 * security stamp, current jti and (idle timeout on) recent activity. Only when it
 * changes no row do we say why: a plain read settles a session that is gone or
 * over, and only an active one is
 * locked in a transaction and re-checked; an idle session, or a stale stamp or jti on
 * an active one, revokes it, and that revocation commits before the outcome is returned.
 */
export async function rotateRefresh(ctx: StoreContext, input: RotateRefreshInput): Promise<RotateOutcome> {
  const values: RotateValues = {
    id: input.sessionId,
    userId: input.userId,
    presentedJti: input.presentedJti,
    nextJti: input.nextJti,
    stamp: input.securityStamp,
    now: input.now.getTime(),
    idleCutoff: input.idleCutoff?.getTime() ?? -1,
  };
  const swapped = await swapOnce(ctx, values);
  if (swapped !== 'no_swap') return swapped === null ? { status: 'expired' } : { status: 'consumed', session: swapped };
  // Most misses are on sessions that are over already (the other racers of a
  // reuse, a token of a revoked session). Those states never change back, so a
  // plain read settles them with no transaction and no row lock: a storm of
  // replays does not queue on one row. Only an active session is locked.
  const { rows } = await ctx.db.executeQuery(ctx.queries.findById.bind({ id: values.id }));
  const settled = finalOutcome(rows[0], values);
  if (settled !== null) return settled;
  return ctx.dialect.transaction(ctx.db, (trx) => classify(ctx, trx, values));
}

/**
 * The conditional UPDATE and, without RETURNING, its read-back: in one round trip where the
 * dialect has a compound statement for it (MariaDB), else one or two statements.
 */
async function swapOnce(ctx: StoreContext, values: RotateValues): Promise<SessionRecord | null | 'no_swap'> {
  const update = ctx.queries.rotate.bind(values);
  const rows = await runInOneTrip(ctx.db, ctx.dialect.oneTripRotate?.(update, ctx.queries.findById.bind({ id: values.id })));
  if (rows === null) return afterSwap(ctx, ctx.db, await ctx.db.executeQuery(update), values);
  const row = rows[0] as SessionRow | undefined;
  return row === undefined ? 'no_swap' : swappedRecord(row, values);
}

/** missing, wrong_user or expired (none of them ever changes back); null for an active session of this user. */
function finalOutcome(row: SessionRow | undefined, values: RotateValues): RotateOutcome | null {
  if (row === undefined) return { status: 'missing' };
  if (row.user_id !== values.userId) return { status: 'wrong_user' };
  if (!isActiveRow(row, values.now)) return { status: 'expired' };
  return null;
}

async function classify(ctx: StoreContext, trx: Kysely<SessionDb>, values: RotateValues): Promise<RotateOutcome> {
  const { rows } = await trx.executeQuery(ctx.queries.findByIdForUpdate.bind({ id: values.id }));
  const row = rows[0];
  const settled = finalOutcome(row, values);
  if (settled !== null || row === undefined) return settled ?? { status: 'missing' };
  if (Number(row.last_activity_at) <= values.idleCutoff) {
    await trx.executeQuery(ctx.queries.revoke.bind({ id: values.id, now: values.now }));
    return { status: 'idle' };
  }
  if (row.security_stamp !== values.stamp || row.refresh_jti !== values.presentedJti) {
    await trx.executeQuery(ctx.queries.revoke.bind({ id: values.id, now: values.now }));
    return { status: row.security_stamp !== values.stamp ? 'security_changed' : 'reused' };
  }
  // Everything matches under the lock (the first UPDATE cannot normally miss such
  // a row): swap here, inside the lock.
  const swapped = await afterSwap(ctx, trx, await trx.executeQuery(ctx.queries.rotate.bind(values)), values);
  if (swapped === 'no_swap' || swapped === null) throw new Error('rotate: locked row did not swap');
  return { status: 'consumed', session: swapped };
}

/**
 * The record after a swap, `null` when it swapped but the row is gone already, or
 * 'no_swap'. Without UPDATE ... RETURNING (MySQL) the row is read back and the
 * swapped fields laid over it, so a later change cannot show through.
 */
async function afterSwap(
  ctx: StoreContext,
  db: Kysely<SessionDb>,
  result: QueryResult<SessionRow>,
  values: RotateValues,
): Promise<SessionRecord | null | 'no_swap'> {
  if (ctx.dialect.updateReturning) {
    const row = result.rows[0];
    return row === undefined ? 'no_swap' : toRecord(row);
  }
  if (affectedRows(result) !== 1) return 'no_swap';
  const { rows } = await db.executeQuery(ctx.queries.findById.bind({ id: values.id }));
  const row = rows[0];
  if (row === undefined) return null;
  return swappedRecord(row, values);
}

/** The row read after the swap, with the swapped fields laid over it (a later change must not show through). */
function swappedRecord(row: SessionRow, values: RotateValues): SessionRecord {
  return {
    ...toRecord(row),
    refreshJti: values.nextJti,
    securityStamp: values.stamp,
    lastActivityAt: new Date(values.now),
    expiredAt: null,
  };
}
