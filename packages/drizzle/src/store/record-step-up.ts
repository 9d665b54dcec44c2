import type { StepUpInput } from '@sessauth/core/store';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { SessionRow } from './session-row.js';
import { isActiveModelRow } from '@sessauth/core/store';
import type { StoreContext } from './store-context.js';

/**
 * A step-up: one conditional UPDATE on id, owner and liveness sets `auth_time`, `amr` and `acr`
 * together (one statement: atomic on every engine). No row changed means "not one of theirs,
 * or over", except where the engine counts only rows whose value changed (MySQL): writing the
 * very values it holds is then settled by a re-read.
 */
export async function recordStepUp(ctx: StoreContext, input: StepUpInput): Promise<boolean> {
  const { t, engine } = ctx;
  const nowMs = input.now.getTime();
  const values = { authTime: input.authTime.getTime(), amr: JSON.stringify(input.amr), acr: input.acr };
  const owned = and(eq(t.id, input.sessionId), eq(t.userId, input.userId), isNull(t.expiredAt), gt(t.expiresAt, nowMs));
  if ((await engine.changed(engine.db.update(t).set(values).where(owned))) > 0) return true;
  const [row] = await engine.db.select<SessionRow>().from(t).where(eq(t.id, input.sessionId));
  return (
    row !== undefined &&
    row.userId === input.userId &&
    isActiveModelRow(row, nowMs) &&
    Number(row.authTime) === values.authTime &&
    row.amr === values.amr &&
    (row.acr ?? null) === values.acr
  );
}
