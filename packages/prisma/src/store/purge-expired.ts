import type { ClientContext } from './store-context.js';

/**
 * Deletes revoked rows (`expired_at < now`) and naturally ended ones (`expires_at < now`) in
 * batches of `purgeBatchSize` ids, each batch its own short statement, so a purge of a million
 * rows never holds a long lock. One pass per condition keeps each SELECT on its own index. Both
 * conditions only ever become true, so selecting ids first and deleting them after is safe; the
 * DELETE repeats the condition anyway.
 */
export async function purgeExpired(ctx: ClientContext, now: Date): Promise<number> {
  const sessions = ctx.client.sessauthSession;
  const ended = { lt: now.getTime() };
  let deleted = 0;
  for (const column of ['expiredAt', 'expiresAt'] as const) {
    for (;;) {
      const batch = await sessions.findMany({
        where: { [column]: ended },
        orderBy: { [column]: 'asc' },
        take: ctx.purgeBatchSize,
      });
      if (batch.length === 0) break;
      deleted += (await sessions.deleteMany({ where: { id: { in: batch.map((row) => row.id) }, [column]: ended } })).count;
      if (batch.length < ctx.purgeBatchSize) break;
    }
  }
  return deleted;
}
