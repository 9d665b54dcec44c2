import { describe, expect, it } from 'vitest';
import { checkHistory, UNAVAILABLE_BODY } from '../src/checker.js';
import { countLosses, isAvailability, refreshLatency, rulesOf } from '../src/failover/losses.js';
import { History, type HistoryEntry } from '../src/history.js';

// The failover table counts the checker's findings as losses: each lost session or undone rotation
// once, however many requests show it; availability findings kept apart.
type Draft = Partial<Omit<HistoryEntry, 'seq'>> & Pick<HistoryEntry, 'kind'>;

function entries(...drafts: Draft[]): HistoryEntry[] {
  const history = new History();
  for (const draft of drafts) {
    history.add({
      client: 1,
      sid: 's1',
      presented: null,
      expectLive: false,
      start: 1000,
      end: 1010,
      status: 200,
      code: null,
      body: '{}',
      issued: null,
      ...draft,
    });
  }
  return history.entries;
}

const losses = (list: HistoryEntry[], recoveryMs: number | null = 300) =>
  countLosses(checkHistory({ entries: list, deadlineMs: 2000, healedAt: 10_000, recoveryMs, serverExit: null }));

describe('countLosses', () => {
  it('a clean history loses nothing', () => {
    const result = losses(entries({ kind: 'login' }, { kind: 'refresh', presented: 'r1' }, { kind: 'me', expectLive: true }));
    expect(result.losses).toEqual({ revocationsLost: 0, rotationsUndone: 0, sessionsLost: 0, lateAnswers: 0 });
    expect(result.others).toEqual([]);
  });

  it('a revocation not honoured counts once per session, however many guarded 200s follow it', () => {
    const result = losses(
      entries(
        { kind: 'logout', start: 2000, end: 2010 },
        { kind: 'me', start: 3000, end: 3010 },
        { kind: 'committed-check', start: 12_000, end: 12_010 },
        { kind: 'logout', sid: 's2', start: 2000, end: 2010 },
        { kind: 'list', sid: 's2', start: 3000, end: 3010 },
      ),
    );
    expect(result.losses.revocationsLost).toBe(2);
  });

  it('the probe right after an acknowledged logout answered 200 is that revocation lost, once, not a contract break', () => {
    const result = losses(entries({ kind: 'logout', start: 2000, end: 2010 }, { kind: 'probe', start: 2011, end: 2020 }));
    expect(result.losses.revocationsLost).toBe(1);
    expect(result.others).toEqual([]);
  });

  it('a spent refresh token that works again is one undone rotation (the replay 200 is not also another finding)', () => {
    const result = losses(entries({ kind: 'refresh', presented: 'r1' }, { kind: 'replay', presented: 'r1', start: 2000, end: 2010 }));
    expect(result.losses.rotationsUndone).toBe(1);
    expect(result.others).toEqual([]);
  });

  it('an acknowledged session lost: its live request 401 and its committed check count once', () => {
    const result = losses(
      entries(
        { kind: 'me', status: 401, code: 'session_expired', expectLive: true },
        { kind: 'committed-check', status: 401, code: 'invalid_token', start: 12_000, end: 12_010 },
      ),
    );
    expect(result.losses.sessionsLost).toBe(1);
  });

  it('a committed check answered 503 is availability (unverified), named apart', () => {
    const result = losses(entries({ kind: 'committed-check', status: 503, body: JSON.stringify(UNAVAILABLE_BODY), start: 9000, end: 9010 }));
    expect(result.others).toHaveLength(1);
    expect(result.others.every(isAvailability)).toBe(true);
    expect(rulesOf(result.others)).toBe('committed-check-503:1');
  });

  it('late answers count one by one; a slow recovery is availability, not a loss', () => {
    const result = losses(
      entries({ kind: 'me', start: 1000, end: 4500 }, { kind: 'refresh', presented: 'r9', status: 'timeout', end: 20_000 }),
      9000,
    );
    expect(result.losses.lateAnswers).toBe(2);
    expect(result.others.map((v) => v.rule)).toEqual(['not-recovered']);
  });
});

describe('refreshLatency', () => {
  it('takes the nearest rank over successful refreshes only', () => {
    const list = entries(...Array.from({ length: 100 }, (_, i) => ({ kind: 'refresh' as const, presented: `r${i}`, start: 0, end: i + 1 })), {
      kind: 'refresh',
      presented: 'x',
      status: 503,
      start: 0,
      end: 9999,
    });
    expect(refreshLatency(list, 50)).toBe(50);
    expect(refreshLatency(list, 99)).toBe(99);
    expect(refreshLatency([], 50)).toBeNull();
  });
});
