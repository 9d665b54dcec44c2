import type { ActivityEntry } from '../store/activity-port.js';
import type { SessionRecord } from '../store/store-port.js';

/** Reads the histories of some sessions of one user (the engine's `readActivity`, or the store's `listActivity`). */
export type ActivityReader = (userId: string, sessionIds: readonly string[]) => Promise<Map<string, ActivityEntry[]>>;

// A page may hold up to 200 sessions of as many users: read a few users at a time, so one
// admin page never takes a store's whole connection pool.
const USERS_AT_ONCE = 4;

/**
 * The activity history of every session on a listing page (JWT_SESSION_ACTIVITY), oldest
 * first each: one store read per user on the page. The store filters on the owner, so a
 * session is only ever shown its own entries.
 */
export async function readPageActivity(sessions: readonly SessionRecord[], read: ActivityReader): Promise<Map<string, ActivityEntry[]>> {
  const byUser = new Map<string, string[]>();
  for (const session of sessions) byUser.set(session.userId, [...(byUser.get(session.userId) ?? []), session.id]);
  const users = [...byUser];
  const out = new Map<string, ActivityEntry[]>();
  for (let i = 0; i < users.length; i += USERS_AT_ONCE) {
    const histories = await Promise.all(users.slice(i, i + USERS_AT_ONCE).map(([userId, ids]) => read(userId, ids)));
    for (const one of histories) for (const [id, entries] of one) out.set(id, entries);
  }
  return out;
}

/** The distinct risk signals of a history, in the order they were first raised. */
export function signalsOf(history: readonly ActivityEntry[]): string[] {
  const signals = new Set<string>();
  for (const entry of history) if (entry.kind === 'risk_signal' && entry.detail !== null) signals.add(entry.detail);
  return [...signals];
}
