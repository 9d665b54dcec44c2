import type { BindDeviceKeyInput } from '@sessauth/core/store';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { StoreContext } from './store-context.js';

/**
 * Binds an active, unbound session of its owner to a browser's DBSC key: one conditional UPDATE
 * (atomic on every engine: of two racing registrations exactly one matches). The key goes from
 * null to a value, so even an engine that counts only changed rows counts it.
 */
export async function bindDeviceKey(ctx: StoreContext, input: BindDeviceKeyInput): Promise<boolean> {
  const { t, engine } = ctx;
  const unbound = and(
    eq(t.id, input.sessionId),
    eq(t.userId, input.userId),
    isNull(t.deviceBoundKey),
    isNull(t.expiredAt),
    gt(t.expiresAt, input.now.getTime()),
  );
  return (await engine.changed(engine.db.update(t).set({ deviceBoundKey: input.publicKey }).where(unbound))) > 0;
}
