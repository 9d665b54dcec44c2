import { and, eq, gt, isNull } from 'drizzle-orm';
import type { SessionRow } from './session-row.js';
import { isActiveModelRow } from '@sessauth/core/store';
import type { StoreContext } from './store-context.js';

/**
 * Names one active session of `userId`: one conditional UPDATE on id, owner and liveness. No
 * row changed means "not one of theirs, or over", except where the engine counts only rows
 * whose value changed (MySQL): renaming to the same name is then settled by a re-read.
 */
export async function renameSession(ctx: StoreContext, id: string, userId: string, name: string, now: Date): Promise<boolean> {
  const { t, engine } = ctx;
  const nowMs = now.getTime();
  const owned = and(eq(t.id, id), eq(t.userId, userId), isNull(t.expiredAt), gt(t.expiresAt, nowMs));
  if ((await engine.changed(engine.db.update(t).set({ name }).where(owned))) > 0) return true;
  const [row] = await engine.db.select<SessionRow>().from(t).where(eq(t.id, id));
  return row !== undefined && row.userId === userId && isActiveModelRow(row, nowMs) && row.name === name;
}
