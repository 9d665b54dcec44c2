import type { ActivityEntry, ActivityQuery, ActivityTableRow, AppendActivityInput } from '@sessauth/core/store';
import { activityEntryFromRow, addToHistories } from '@sessauth/core/store';
import type { SessauthPrismaTransaction } from '../client/prisma-like.js';
import type { ClientContext } from './store-context.js';

// The activity history (the store's `activity` option; migration 0004_sessauth_session_activity).
// Raw statements on the table: the store needs no delegate for it, so a client generated
// before the model was added still works.

const COLUMNS = ['id', 'session_id', 'user_id', 'kind', 'at', 'expires_at', 'ip_address', 'browser', 'location', 'detail'] as const;
/** Ids per statement of a read of many sessions. */
const READ_CHUNK = 64;
/** Rows per DELETE of the purge. */
const PURGE_BATCH = 1000;

function valuesOf(entry: ActivityEntry): unknown[] {
  return [
    entry.id,
    entry.sessionId,
    entry.userId,
    entry.kind,
    BigInt(entry.at.getTime()),
    BigInt(entry.expiresAt.getTime()),
    entry.ipAddress,
    entry.browser,
    entry.location === null ? null : JSON.stringify(entry.location),
    entry.detail,
  ];
}

/** `count` placeholders from `start` (1-based), comma-separated. */
function placeholders(ctx: ClientContext, start: number, count: number): string {
  return Array.from({ length: count }, (_, index) => ctx.sql.placeholder(start + index)).join(', ');
}

/**
 * One interactive transaction under the user's lock (the one logins take; SQLite's write lock):
 * insert the entries in one statement, then keep each named session's newest `max` (by id).
 */
export async function appendActivity(ctx: ClientContext, input: AppendActivityInput): Promise<void> {
  const max = input.maxEntriesPerSession;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('@sessauth/prisma: maxEntriesPerSession must be a positive integer');
  const first = input.entries[0];
  if (first === undefined) return;
  const { sql, names } = ctx;
  const q = sql.quote;
  const columns = COLUMNS.map(q).join(', ');
  const rows = input.entries.map((_, index) => `(${placeholders(ctx, index * COLUMNS.length + 1, COLUMNS.length)})`).join(', ');
  await ctx.client.$transaction(async (tx: SessauthPrismaTransaction) => {
    await sql.lockUser(tx, names, first.userId);
    await tx.$executeRawUnsafe(`insert into ${names.activity} (${columns}) values ${rows}`, ...input.entries.flatMap(valuesOf));
    for (const sessionId of new Set(input.entries.map((entry) => entry.sessionId))) {
      const beyond = await tx.$queryRawUnsafe<Array<{ id: string }>>(
        `select ${q('id')} from ${names.activity} where ${q('session_id')} = ${sql.placeholder(1)} order by ${q('id')} desc limit 1 offset ${max}`,
        sessionId,
      );
      const cutoff = beyond[0]?.id;
      if (cutoff !== undefined) {
        await tx.$executeRawUnsafe(
          `delete from ${names.activity} where ${q('session_id')} = ${sql.placeholder(1)} and ${q('id')} <= ${sql.placeholder(2)}`,
          sessionId,
          cutoff,
        );
      }
    }
  }, ctx.transaction);
}

/** The histories of some sessions of one user, oldest first, expired entries left out: one statement per 64 sessions. */
export async function listActivity(ctx: ClientContext, query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
  const { sql, names } = ctx;
  const q = sql.quote;
  const ids = [...new Set(query.sessionIds)];
  const found = new Map<string, ActivityEntry[]>();
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const chunk = ids.slice(start, start + READ_CHUNK);
    const rows = await ctx.client.$queryRawUnsafe<ActivityTableRow[]>(
      `select ${COLUMNS.map(q).join(', ')} from ${names.activity}
       where ${q('session_id')} in (${placeholders(ctx, 1, chunk.length)})
         and ${q('user_id')} = ${sql.placeholder(chunk.length + 1)} and ${q('expires_at')} > ${sql.placeholder(chunk.length + 2)}
       order by ${q('session_id')}, ${q('id')}`,
      ...chunk,
      query.userId,
      BigInt(query.now.getTime()),
    );
    addToHistories(found, rows.map(activityEntryFromRow));
  }
  return found;
}

/** Deletes entries past their retention (`expires_at < now`) in batches, each its own short statement. */
export async function purgeActivity(ctx: ClientContext, now: Date): Promise<void> {
  const { sql, names } = ctx;
  const q = sql.quote;
  for (;;) {
    const batch = await ctx.client.$queryRawUnsafe<Array<{ id: string }>>(
      `select ${q('id')} from ${names.activity} where ${q('expires_at')} < ${sql.placeholder(1)} order by ${q('expires_at')} limit ${PURGE_BATCH}`,
      BigInt(now.getTime()),
    );
    if (batch.length === 0) break;
    await ctx.client.$executeRawUnsafe(
      `delete from ${names.activity} where ${q('id')} in (${placeholders(ctx, 1, batch.length)})`,
      ...batch.map((row) => row.id),
    );
    if (batch.length < PURGE_BATCH) break;
  }
}
