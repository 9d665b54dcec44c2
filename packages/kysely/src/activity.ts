import type { ActivityEntry, ActivityQuery, AppendActivityInput } from '@sessauth/core/store';
import { activityEntryFromRow, addToHistories } from '@sessauth/core/store';
import type { Kysely } from 'kysely';
import type { ActivityDb, SessauthActivityTable } from './schema.js';
import type { StoreContext } from './store-context.js';

// The activity history on its own table (migration 0006-session-activity).

type ActivityRow = { [K in keyof SessauthActivityTable]: SessauthActivityTable[K] extends { __select__: infer S } ? S : SessauthActivityTable[K] };

/** Ids per statement of a read of many sessions (a bounded `in (...)`, as the batched session read). */
const READ_CHUNK = 64;
/** Rows per DELETE of the purge, each its own short statement. */
const PURGE_BATCH = 1000;

function activityDb(ctx: StoreContext): Kysely<ActivityDb> {
  return ctx.db as unknown as Kysely<ActivityDb>;
}

function toRow(entry: ActivityEntry) {
  return {
    id: entry.id,
    session_id: entry.sessionId,
    user_id: entry.userId,
    kind: entry.kind,
    at: entry.at.getTime(),
    expires_at: entry.expiresAt.getTime(),
    ip_address: entry.ipAddress,
    browser: entry.browser,
    location: entry.location === null ? null : JSON.stringify(entry.location),
    detail: entry.detail,
  };
}

/**
 * One transaction under the user's lock: insert the entries (one multi-row INSERT), then for each session named in
 * them find its `max`-th newest id and delete the older ones. A reader (another connection)
 * sees the history before or after, never longer than the bound.
 */
export async function appendActivity(ctx: StoreContext, input: AppendActivityInput): Promise<void> {
  const max = input.maxEntriesPerSession;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('@sessauth/kysely: maxEntriesPerSession must be a positive integer');
  if (input.entries.length === 0) return;
  const table = ctx.names.activity;
  const sessionIds = [...new Set(input.entries.map((entry) => entry.sessionId))];
  const userId = input.entries[0]?.userId ?? '';
  await ctx.dialect.transaction(activityDb(ctx), async (trx) => {
    // The user's lock (the one logins take) serialises appends to one session: two
    // READ COMMITTED transactions would each trim without seeing the other's rows.
    await ctx.dialect.lockUser(trx, ctx.names, userId);
    await trx.insertInto(table).values(input.entries.map(toRow)).execute();
    for (const sessionId of sessionIds) {
      const beyond = await trx
        .selectFrom(table)
        .select('id')
        .where('session_id', '=', sessionId)
        .orderBy('id', 'desc')
        .limit(1)
        .offset(max)
        .executeTakeFirst();
      if (beyond !== undefined) await trx.deleteFrom(table).where('session_id', '=', sessionId).where('id', '<=', beyond.id).execute();
    }
  });
}

/** The histories of some sessions of one user, oldest first, expired entries left out: one statement per 64 sessions. */
export async function listActivity(ctx: StoreContext, query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
  const found = new Map<string, ActivityEntry[]>();
  const ids = [...new Set(query.sessionIds)];
  const nowMs = query.now.getTime();
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const rows = await activityDb(ctx)
      .selectFrom(ctx.names.activity)
      .selectAll()
      .where('session_id', 'in', ids.slice(start, start + READ_CHUNK))
      .where('user_id', '=', query.userId)
      .where('expires_at', '>', nowMs)
      .orderBy('session_id')
      .orderBy('id')
      .execute();
    addToHistories(found, (rows as ActivityRow[]).map(activityEntryFromRow));
  }
  return found;
}

/** Deletes entries past their retention (`expires_at < now`) in batches, each its own short statement; returns how many. */
export async function purgeActivity(ctx: StoreContext, now: Date): Promise<number> {
  const nowMs = now.getTime();
  const db = activityDb(ctx);
  let deleted = 0;
  for (;;) {
    const batch = await db
      .selectFrom(ctx.names.activity)
      .select('id')
      .where('expires_at', '<', nowMs)
      .orderBy('expires_at')
      .limit(PURGE_BATCH)
      .execute();
    if (batch.length === 0) break;
    const result = await db
      .deleteFrom(ctx.names.activity)
      .where(
        'id',
        'in',
        batch.map((row) => row.id),
      )
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (batch.length < PURGE_BATCH) break;
  }
  return deleted;
}
