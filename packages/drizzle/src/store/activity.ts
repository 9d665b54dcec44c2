import { type ActivityEntry, type ActivityQuery, type AppendActivityInput, addToHistories } from '@sessauth/core/store';
import { and, asc, eq, gt, inArray, lt } from 'drizzle-orm';
import { type ActivityRow, toActivityEntry, toActivityRow } from './activity-row.js';
import type { StoreContext } from './store-context.js';

// The activity history (the store's `activity` option; step 0006-session-activity).

/** Ids per statement of a read of many sessions. */
const READ_CHUNK = 64;
/** Rows per DELETE of the purge. */
const PURGE_BATCH = 1000;

export function appendActivity(ctx: StoreContext, input: AppendActivityInput): Promise<void> {
  const max = input.maxEntriesPerSession;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('@sessauth/drizzle: maxEntriesPerSession must be a positive integer');
  const first = input.entries[0];
  if (first === undefined) return Promise.resolve();
  return ctx.engine.appendActivity(first.userId, input.entries.map(toActivityRow), max);
}

export async function listActivity(ctx: StoreContext, query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
  const a = ctx.engine.tables.activity;
  const ids = [...new Set(query.sessionIds)];
  const found = new Map<string, ActivityEntry[]>();
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const rows = await ctx.engine.db
      .select<ActivityRow>()
      .from(a)
      .where(and(inArray(a.sessionId, ids.slice(start, start + READ_CHUNK)), eq(a.userId, query.userId), gt(a.expiresAt, query.now.getTime())))
      .orderBy(asc(a.sessionId), asc(a.id));
    addToHistories(found, rows.map(toActivityEntry));
  }
  return found;
}

/** Deletes entries past their retention (`expires_at < now`) in batches, each its own short statement. */
export async function purgeActivity(ctx: StoreContext, now: Date): Promise<void> {
  const { engine } = ctx;
  const a = engine.tables.activity;
  const nowMs = now.getTime();
  for (;;) {
    const batch = await engine.db
      .select<{ id: string }>({ id: a.id })
      .from(a)
      .where(lt(a.expiresAt, nowMs))
      .orderBy(asc(a.expiresAt))
      .limit(PURGE_BATCH);
    if (batch.length === 0) break;
    await engine.changed(
      engine.db.delete(a).where(
        inArray(
          a.id,
          batch.map((row) => row.id),
        ),
      ),
    );
    if (batch.length < PURGE_BATCH) break;
  }
}
