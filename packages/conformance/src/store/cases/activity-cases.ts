import type { ActivityEntry, ActivityKind, SessionStore } from '@sessauth/core/store';
import { expect, it } from 'vitest';
import { DAY, FULL_LOCATION, HOUR, MINUTE, at, newSessionFixture, newUserId, randomHex, testNow } from '../session-fixtures.js';
import type { StoreCaseContext } from '../store-case-context.js';

let counter = 0;

/** An entry id as the core mints them: fixed-width time, a counter, randomness (sorts as made). */
function entryId(when: Date): string {
  counter += 1;
  return `${when.getTime().toString(36).padStart(11, '0')}${(counter % 1_679_616).toString(36).padStart(4, '0')}${randomHex(6)}`;
}

function entry(
  session: { id: string; userId: string },
  when: Date,
  overrides: Partial<Omit<ActivityEntry, 'sessionId' | 'userId'>> & { kind?: ActivityKind } = {},
): ActivityEntry {
  return {
    id: entryId(when),
    sessionId: session.id,
    userId: session.userId,
    kind: 'refreshed',
    at: when,
    expiresAt: at(when, 30 * DAY),
    ipAddress: null,
    browser: null,
    location: null,
    detail: null,
    ...overrides,
  };
}

function append(store: SessionStore, entries: ActivityEntry[], max = 50): Promise<void> {
  return store.appendActivity!({ entries, maxEntriesPerSession: max });
}

async function history(store: SessionStore, session: { id: string; userId: string }, now: Date): Promise<ActivityEntry[]> {
  return (await store.listActivity!({ userId: session.userId, sessionIds: [session.id], now })).get(session.id) ?? [];
}

function sessionKey() {
  return { id: randomHex(), userId: newUserId() };
}

/** `appendActivity` / `listActivity` and the purge of activity entries (JWT_SESSION_ACTIVITY). */
export function activityCases({ store }: StoreCaseContext): void {
  it('every field round-trips exactly, in the order of the ids, across calls', async () => {
    const session = sessionKey();
    const now = testNow();
    const created = entry(session, now, {
      kind: 'created',
      ipAddress: '2001:db8:85a3::8a2e:370:7334',
      browser: 'Firefox on Linux',
      location: FULL_LOCATION,
    });
    const renamed = entry(session, at(now, MINUTE), { kind: 'renamed', detail: 'Küchen-Tablet ✓ 日本'.padEnd(64, 'x') });
    const stepped = entry(session, at(now, 2 * MINUTE), { kind: 'stepped_up', detail: Array.from({ length: 8 }, () => 'm'.repeat(32)).join(',') });
    await append(store(), [created]);
    await append(store(), [renamed, stepped]);
    expect(await history(store(), session, now)).toEqual([created, renamed, stepped]);
  });

  it('one call may carry several sessions of one user; each session reads only its own entries', async () => {
    const userId = newUserId();
    const a = { id: randomHex(), userId };
    const b = { id: randomHex(), userId };
    const now = testNow();
    const entries = [entry(a, now, { kind: 'revoked', detail: 'logout_all' }), entry(b, now, { kind: 'revoked', detail: 'logout_all' })];
    await append(store(), entries);
    const map = await store().listActivity!({ userId, sessionIds: [a.id, b.id, randomHex()], now });
    expect([...map.keys()].sort()).toEqual([a.id, b.id].sort());
    expect(map.get(a.id)).toEqual([entries[0]]);
    expect(map.get(b.id)).toEqual([entries[1]]);
  });

  it('keeps only the newest maxEntriesPerSession of a session, within one call and across calls', async () => {
    const session = sessionKey();
    const other = { id: randomHex(), userId: session.userId };
    const now = testNow();
    const entries = Array.from({ length: 6 }, (_, index) => entry(session, at(now, index * MINUTE)));
    await append(store(), entries.slice(0, 5), 3);
    expect(await history(store(), session, now)).toEqual(entries.slice(2, 5));
    const others = [entry(other, now), entry(other, at(now, MINUTE))];
    await append(store(), [entries[5]!, ...others], 3);
    expect(await history(store(), session, now)).toEqual(entries.slice(3, 6));
    // The bound is per session: the other session keeps both.
    expect(await history(store(), other, now)).toEqual(others);
  });

  it("another user's entries are never returned, even for the right session id", async () => {
    const session = sessionKey();
    const now = testNow();
    await append(store(), [entry(session, now, { kind: 'created' })]);
    const map = await store().listActivity!({ userId: newUserId(), sessionIds: [session.id], now });
    expect(map.size).toBe(0);
  });

  it('an entry is not read at or after its expiresAt', async () => {
    const session = sessionKey();
    const now = testNow();
    const short = entry(session, now, { expiresAt: at(now, HOUR) });
    const long = entry(session, at(now, 1), { expiresAt: at(now, 2 * HOUR) });
    await append(store(), [short, long]);
    expect(await history(store(), session, at(now, HOUR - 1))).toEqual([short, long]);
    expect(await history(store(), session, at(now, HOUR))).toEqual([long]);
    expect(await history(store(), session, at(now, 2 * HOUR))).toEqual([]);
  });

  it('concurrent appends to one session all land, and the bound holds after them', async () => {
    const session = sessionKey();
    const now = testNow();
    const entries = Array.from({ length: 12 }, (_, index) => entry(session, at(now, index)));
    await Promise.all(entries.map((one) => append(store(), [one], 50)));
    expect((await history(store(), session, now)).map((one) => one.id).sort()).toEqual(entries.map((one) => one.id).sort());
    const more = Array.from({ length: 8 }, (_, index) => entry(session, at(now, 100 + index)));
    await Promise.all(more.map((one) => append(store(), [one], 10)));
    const kept = await history(store(), session, now);
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(kept.length).toBeGreaterThanOrEqual(8);
  });

  it("the purge deletes entries past their retention and keeps the others, also after the session's row is gone", async () => {
    const now = testNow();
    const session = newSessionFixture({ createdAt: now, expiresAt: at(now, 14 * DAY) });
    await store().createSession({ session, maxActiveSessions: 10 });
    const old = entry(session, now, { kind: 'created', expiresAt: at(now, HOUR) });
    const revoked = entry(session, at(now, 1), { kind: 'revoked', detail: 'logout', expiresAt: at(now, 3 * HOUR) });
    await append(store(), [old, revoked]);
    expect(await store().expireSession(session.id, session.userId, at(now, 1))).toBe(true);
    await store().purgeExpired(at(now, 2 * HOUR));
    expect(await store().findSession(session.id)).toBeNull();
    // Read as of the start: only a deletion (not the read's own filter) explains a missing entry.
    expect(await history(store(), session, now)).toEqual([revoked]);
  });
}
