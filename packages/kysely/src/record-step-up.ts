import type { StepUpInput } from '@sessauth/core/store';
import type { StoreContext } from './store-context.js';

/**
 * A step-up: one conditional UPDATE on id, owner and liveness sets `auth_time`, `amr` and
 * `acr` together (a single statement, so atomic on every engine). Nothing else changes, and
 * a revoked, ended or someone else's session is left alone. Unlike a rename, the new
 * `auth_time` comes from the clock, so an engine that counts only changed rows still counts it
 * (a step-up within the same millisecond as the last one: settled by the re-read below).
 */
export async function recordStepUp(ctx: StoreContext, input: StepUpInput): Promise<boolean> {
  const nowMs = input.now.getTime();
  const authTime = input.authTime.getTime();
  const amr = JSON.stringify(input.amr);
  const result = await ctx.db
    .updateTable(ctx.names.session)
    .set({ auth_time: authTime, amr, acr: input.acr })
    .where('id', '=', input.sessionId)
    .where('user_id', '=', input.userId)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', nowMs)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return true;
  const { rows } = await ctx.db.executeQuery(ctx.queries.findById.bind({ id: input.sessionId }));
  const row = rows[0];
  return (
    row !== undefined &&
    row.user_id === input.userId &&
    row.expired_at === null &&
    Number(row.expires_at) > nowMs &&
    Number(row.auth_time) === authTime &&
    row.amr === amr &&
    (row.acr ?? null) === input.acr
  );
}
