import { describe, expect, it } from 'vitest';
import { checkHistory, UNAVAILABLE_BODY, type CheckInput } from '../src/checker.js';
import { History, type HistoryEntry } from '../src/history.js';

// The checker must catch each broken invariant: one hand-made history per rule,
// next to a clean one that passes.
const UNAVAILABLE = JSON.stringify(UNAVAILABLE_BODY);
const HEALED_AT = 10_000;

type Draft = Partial<Omit<HistoryEntry, 'seq'>> & Pick<HistoryEntry, 'kind'>;

function historyOf(...drafts: Draft[]): History {
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
  return history;
}

function check(history: History, overrides: Partial<CheckInput> = {}) {
  return checkHistory({
    entries: history.entries,
    deadlineMs: 5000,
    healedAt: HEALED_AT,
    recoveryMs: 300,
    serverExit: null,
    ...overrides,
  }).map((violation) => violation.rule);
}

describe('the history checker', () => {
  it('passes a clean history: a login, reads, a refresh, a 503 during the fault, a revocation and its refused probe', () => {
    const history = historyOf(
      { kind: 'login', sid: null, issued: { sid: 's1', access: 'a1', refresh: 'r1' } },
      { kind: 'me', expectLive: true },
      { kind: 'refresh', presented: 'r1', expectLive: true, issued: { sid: 's1', access: 'a2', refresh: 'r2' } },
      { kind: 'me', status: 503, code: 'service_unavailable', body: UNAVAILABLE, start: 9000, end: 9500 },
      { kind: 'logout', expectLive: true, start: 11_000, end: 11_010 },
      { kind: 'probe', status: 401, code: 'session_expired', start: 11_020, end: 11_030 },
      { kind: 'committed-check', status: 401, code: 'session_expired', start: 12_000, end: 12_010 },
    );
    expect(check(history)).toEqual([]);
  });

  it('takes a login refused 429 login_busy (the hasher line is full), but no other 429', () => {
    const busy = { error_code: 'login_busy' };
    expect(check(historyOf({ kind: 'login', sid: null, status: 429, code: 'login_busy', body: JSON.stringify(busy) }))).toEqual([]);
    expect(check(historyOf({ kind: 'login', sid: null, status: 429, code: 'rate_limited', body: '{}' }))).toEqual(['unexpected-status']);
    expect(check(historyOf({ kind: 'me', status: 429, code: 'login_busy', body: '{}' }))).toEqual(['unexpected-status']);
  });

  it.each<[string, Draft[], Partial<CheckInput>]>([
    ['server-exited', [{ kind: 'me' }], { serverExit: { code: 1, signal: null } }],
    ['no-answer', [{ kind: 'me', status: 'timeout' }], {}],
    ['slow-answer', [{ kind: 'me', start: 1000, end: 7001 }], {}],
    ['server-error', [{ kind: 'me', status: 500, code: 'internal_error' }], {}],
    ['unexpected-status', [{ kind: 'login', status: 400, code: 'invalid_request' }], {}],
    ['503-body', [{ kind: 'me', status: 503, body: '{"error_code":"service_unavailable","message":"connect ECONNREFUSED 127.0.0.1:5432"}' }], {}],
    ['outage-after-heal', [{ kind: 'me', status: 503, body: UNAVAILABLE, start: HEALED_AT + 6000, end: HEALED_AT + 6010 }], {}],
    [
      'double-refresh',
      [
        { kind: 'refresh', presented: 'r1', issued: { sid: 's1', access: 'a2', refresh: 'r2' } },
        { kind: 'refresh', presented: 'r1', issued: { sid: 's1', access: 'a3', refresh: 'r3' } },
      ],
      {},
    ],
    [
      'revoked-but-served',
      [
        { kind: 'logout', start: 1000, end: 1010 },
        { kind: 'me', start: 1020, end: 1030 },
      ],
      {},
    ],
    ['live-session-lost', [{ kind: 'refresh', presented: 'r1', expectLive: true, status: 401, code: 'token_reuse_detected' }], {}],
    ['uncommitted-token', [{ kind: 'committed-check', status: 401, code: 'session_not_found' }], {}],
    ['not-recovered', [{ kind: 'me' }], { recoveryMs: null }],
  ])('catches %s', (rule, drafts, overrides) => {
    expect(check(historyOf(...drafts), overrides)).toContain(rule);
  });

  it('a replay refused as reuse is an acknowledged revocation: a later 200 on that session is caught', () => {
    const history = historyOf(
      { kind: 'replay', presented: 'r1', status: 401, code: 'token_reuse_detected', start: 1000, end: 1010 },
      { kind: 'list', start: 1011, end: 1020 },
    );
    expect(check(history)).toEqual(['revoked-but-served']);
  });

  it('a guarded 200 sent before the revocation was acknowledged is not a violation', () => {
    const history = historyOf({ kind: 'me', start: 1000, end: 1030 }, { kind: 'logout', start: 1005, end: 1020 });
    expect(check(history)).toEqual([]);
  });
});
