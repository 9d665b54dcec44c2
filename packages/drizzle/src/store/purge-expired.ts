import { and, asc, inArray, lt } from 'drizzle-orm';
import type { StoreContext } from './store-context.js';

/**
 * Deletes revoked rows (`expired_at < now`) and naturally ended ones (`expires_at < now`) in
 * batches of `purgeBatchSize` ids, each batch its own short statement, so a purge of a million
 * rows never holds a long lock. One pass per condition keeps each SELECT on its own index. Both
 * conditions only ever become true, so selecting ids first and deleting them after is safe; the
 * DELETE repeats the condition anyway.
 */
export async function purgeExpired(ctx: StoreContext, now: Date): Promise<number> {
  const { t, engine } = ctx;
  const nowMs = now.getTime();
  let deleted = 0;
  for (const column of [t.expiredAt, t.expiresAt]) {
    for (;;) {
      const batch = await engine.db
        .select<{ id: string }>({ id: t.id })
        .from(t)
        .where(lt(column, nowMs))
        .orderBy(asc(column))
        .limit(ctx.purgeBatchSize);
      if (batch.length === 0) break;
      const ids = batch.map((row) => row.id);
      deleted += await engine.changed(engine.db.delete(t).where(and(inArray(t.id, ids), lt(column, nowMs))));
      if (batch.length < ctx.purgeBatchSize) break;
    }
  }
  return deleted;
}
