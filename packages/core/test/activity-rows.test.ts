import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../src/store/activity-port.js';
import { type ActivityTableRow, activityEntryFromRow, addToHistories } from '../src/store/activity-rows.js';

// The reader the SQL stores share; their conformance runs prove it against real databases.
const row = (id: string, sessionId: string, at: ActivityTableRow['at'], location: string | null = null): ActivityTableRow => ({
  id,
  session_id: sessionId,
  user_id: 'u1',
  kind: 'refreshed',
  at,
  expires_at: String(Number(at) + 1000),
  ip_address: '203.0.113.7',
  browser: null,
  location,
  detail: null,
});

describe('activity rows', () => {
  it('reads an instant a driver hands back as a number, a string or a bigint, and the location JSON', () => {
    for (const at of [1_700_000_000_000, '1700000000000', 1_700_000_000_000n]) {
      expect(activityEntryFromRow(row('a1', 's1', at, '{"country":"FR"}'))).toEqual({
        id: 'a1',
        sessionId: 's1',
        userId: 'u1',
        kind: 'refreshed',
        at: new Date(1_700_000_000_000),
        expiresAt: new Date(1_700_000_001_000),
        ipAddress: '203.0.113.7',
        browser: null,
        location: { country: 'FR' },
        detail: null,
      });
    }
  });

  it('reads an unreadable location as none', () => {
    expect(activityEntryFromRow(row('a1', 's1', 0, '{not json')).location).toBeNull();
  });

  it('groups entries by session, keeping their order, across several reads', () => {
    const histories = new Map<string, ActivityEntry[]>();
    addToHistories(histories, [row('a1', 's1', 1), row('a2', 's2', 2), row('a3', 's1', 3)].map(activityEntryFromRow));
    addToHistories(histories, [row('a4', 's2', 4)].map(activityEntryFromRow));
    expect([...histories].map(([id, list]) => [id, list.map((entry) => entry.id)])).toEqual([
      ['s1', ['a1', 'a3']],
      ['s2', ['a2', 'a4']],
    ]);
  });
});
