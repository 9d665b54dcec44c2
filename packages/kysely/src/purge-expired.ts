import type { StoreContext } from './store-context.js';

export type PurgeColumn = 'expired_at' | 'expires_at';

/** One batch of ids to purge: served by the column's own index, oldest first. */
export function selectPurgeBatch(ctx: StoreContext, column: PurgeColumn, nowMs: number) {
  return ctx.db.selectFrom(ctx.names.session).select('id').where(column, '<', nowMs).orderBy(column).limit(ctx.purgeBatchSize);
}

/**
 * Deletes revoked rows (`expired_at < now`) and naturally ended rows
 * (`expires_at < now`) in batches of `purgeBatchSize` ids, each batch its own
 * short statement, so a purge of a million rows never holds a long lock. One pass
 * per condition keeps each SELECT on its own index. Both conditions only ever
 * become true, so selecting ids first and deleting them after is safe; the DELETE
 * repeats the condition anyway.
 */
export async function purgeExpired(ctx: StoreContext, now: Date): Promise<number> {
  const nowMs = now.getTime();
  let deleted = 0;
  for (const column of ['expired_at', 'expires_at'] as const) {
    for (;;) {
      const batch = await selectPurgeBatch(ctx, column, nowMs).execute();
      if (batch.length === 0) break;
      const ids = batch.map((row) => row.id);
      const result = await ctx.db.deleteFrom(ctx.names.session).where('id', 'in', ids).where(column, '<', nowMs).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      if (batch.length < ctx.purgeBatchSize) break;
    }
  }
  return deleted;
}
