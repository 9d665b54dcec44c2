import type { ActivityEntry, ActivityKind, ActivityQuery, AppendActivityInput } from '@sessauth/core/store';
import { runWriteScript } from './durability.js';
import { runScript } from './script-runner.js';
import { SCRIPTS } from './scripts/session-scripts.js';
import type { StoreContext } from './store-context.js';

// The activity history (JWT_SESSION_ACTIVITY): one list per session under its user's hash tag
// (`keys.ts`), bounded by LTRIM and expiring with its newest entry. An entry is JSON with short
// names; the session and the user are the key's.

interface StoredEntry {
  readonly i: string;
  readonly k: ActivityKind;
  readonly t: number;
  readonly x: number;
  readonly ip: string | null;
  readonly b: string | null;
  readonly l: ActivityEntry['location'];
  readonly d: string | null;
}

function encode(entry: ActivityEntry): string {
  const stored: StoredEntry = {
    i: entry.id,
    k: entry.kind,
    t: entry.at.getTime(),
    x: entry.expiresAt.getTime(),
    ip: entry.ipAddress,
    b: entry.browser,
    l: entry.location,
    d: entry.detail,
  };
  return JSON.stringify(stored);
}

/** A stored entry back; an unreadable one (edited by hand, another version) is skipped, never a failed read. */
function decode(text: unknown, sessionId: string, userId: string): ActivityEntry | null {
  if (typeof text !== 'string') return null;
  try {
    const value = JSON.parse(text) as Partial<StoredEntry>;
    if (typeof value.i !== 'string' || typeof value.k !== 'string' || typeof value.t !== 'number' || typeof value.x !== 'number') return null;
    const location = typeof value.l === 'object' && value.l !== null && !Array.isArray(value.l) ? value.l : null;
    return {
      id: value.i,
      sessionId,
      userId,
      kind: value.k,
      at: new Date(value.t),
      expiresAt: new Date(value.x),
      ipAddress: typeof value.ip === 'string' ? value.ip : null,
      browser: typeof value.b === 'string' ? value.b : null,
      location,
      detail: typeof value.d === 'string' ? value.d : null,
    };
  } catch {
    return null;
  }
}

/** One script on the user's slot: push, trim to the bound, expire with the newest entry. */
export async function appendActivity(ctx: StoreContext, input: AppendActivityInput): Promise<void> {
  const max = input.maxEntriesPerSession;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('@sessauth/redis: maxEntriesPerSession must be a positive integer');
  const first = input.entries[0];
  if (first === undefined) return;
  const bySession = new Map<string, ActivityEntry[]>();
  for (const entry of input.entries) {
    if (entry.userId !== first.userId) throw new RangeError('@sessauth/redis: one appendActivity call holds the entries of one user');
    const list = bySession.get(entry.sessionId);
    if (list === undefined) bySession.set(entry.sessionId, [entry]);
    else list.push(entry);
  }
  const keys: string[] = [];
  const args: (string | number)[] = [max];
  for (const [sessionId, entries] of bySession) {
    // The order of the ids, which the port promises to readers.
    const ordered = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    keys.push(ctx.keys.activity(first.userId, sessionId));
    args.push(ordered.length, Math.max(...ordered.map((entry) => entry.expiresAt.getTime())), ...ordered.map(encode));
  }
  // A state change like any other: with `durability` it waits for the replicas (the core records
  // activity best effort, so an unmet wait is logged there and the answer stands).
  await runWriteScript(ctx, 'appendActivity', SCRIPTS.appendActivity, keys, args);
}

/** One script on the user's slot reads every requested list; entries past their expiry are left out. */
export async function listActivity(ctx: StoreContext, query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
  const ids = [...new Set(query.sessionIds)];
  const found = new Map<string, ActivityEntry[]>();
  if (ids.length === 0) return found;
  const reply = await runScript(
    ctx.client,
    SCRIPTS.listActivity,
    ids.map((id) => ctx.keys.activity(query.userId, id)),
    [],
  );
  if (!Array.isArray(reply)) throw new Error('listActivity: malformed reply');
  const nowMs = query.now.getTime();
  ids.forEach((sessionId, index) => {
    const raw: unknown = reply[index];
    const entries = (Array.isArray(raw) ? raw : [])
      .map((text) => decode(text, sessionId, query.userId))
      .filter((entry): entry is ActivityEntry => entry !== null && entry.expiresAt.getTime() > nowMs)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (entries.length > 0) found.set(sessionId, entries);
  });
  return found;
}

/** The purge's part: the lists of these sessions of one user lose the entries past their retention. */
export async function trimActivity(ctx: StoreContext, userId: string, sessionIds: readonly string[], now: Date): Promise<void> {
  if (sessionIds.length === 0) return;
  await runScript(
    ctx.client,
    SCRIPTS.trimActivity,
    sessionIds.map((id) => ctx.keys.activity(userId, id)),
    [now.getTime()],
  );
}
