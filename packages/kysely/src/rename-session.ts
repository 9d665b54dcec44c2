import type { StoreContext } from './store-context.js';
import { isActiveRow } from './session-row.js';

/**
 * Names one active session of `userId`: one conditional UPDATE on id, owner and liveness.
 * No row changed means "not one of theirs, or over", except on an engine that counts only
 * rows whose value changed: renaming to the same name is then settled by a re-read.
 */
export async function renameSession(ctx: StoreContext, id: string, userId: string, name: string, now: Date): Promise<boolean> {
  const nowMs = now.getTime();
  const result = await ctx.db
    .updateTable(ctx.names.session)
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', nowMs)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return true;
  const { rows } = await ctx.db.executeQuery(ctx.queries.findById.bind({ id }));
  const row = rows[0];
  return row !== undefined && row.user_id === userId && isActiveRow(row, nowMs) && row.name === name;
}
