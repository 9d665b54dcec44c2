import type { BindDeviceKeyInput } from '@sessauth/core/store';
import type { StoreContext } from './store-context.js';

/**
 * Binds an active, unbound session to a browser's DBSC key: one conditional UPDATE (atomic on
 * every engine, so of two racing registrations exactly one matches a row).
 */
export async function bindDeviceKey(ctx: StoreContext, input: BindDeviceKeyInput): Promise<boolean> {
  const result = await ctx.db
    .updateTable(ctx.names.session)
    .set({ device_bound_key: input.publicKey })
    .where('id', '=', input.sessionId)
    .where('user_id', '=', input.userId)
    .where('device_bound_key', 'is', null)
    .where('expired_at', 'is', null)
    .where('expires_at', '>', input.now.getTime())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
