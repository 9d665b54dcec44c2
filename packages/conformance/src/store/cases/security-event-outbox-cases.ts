import type { NewSecurityEvent, SecurityEventOutbox, SecurityEventRecord, SessionStore } from '@sessauth/core/store';
import { afterEach, expect, it } from 'vitest';
import { MINUTE, at, randomHex } from '../session-fixtures.js';
import type { StoreCaseContext } from '../store-case-context.js';

/*
 * The outbox is one queue for the whole store, not per user: every case works in a window of
 * time of its own (far from the others'), reads back only its own ids, and removes its rows at
 * the end, so the cases never see each other's rows.
 */

function outbox(store: SessionStore): SecurityEventOutbox {
  if (store.holdSecurityEvents === undefined) throw new Error('this store has no security event outbox: the case should have been skipped');
  return store as SessionStore & SecurityEventOutbox;
}

/** A start instant no other case uses: somewhere in 1990-2010, to the millisecond. */
function window(): Date {
  return new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 20 * 365 * 24 * 60) * MINUTE);
}

function newEvents(count: number, start: Date, overrides: Partial<NewSecurityEvent> = {}): NewSecurityEvent[] {
  const batchId = `batch-${randomHex(8)}`;
  return Array.from({ length: count }, (_, index) => ({
    id: `${randomHex(8)}-${index}`,
    batchId,
    streamId: 'stream-1',
    // A SET is a compact JWS of a kilobyte or two.
    token: `eyJhbGciOiJFUzI1NiJ9.${'a'.repeat(1500)}${index}.sig`,
    userId: `user-${randomHex(4)}`,
    sessionId: `session-${randomHex(6)}`,
    createdAt: start,
    ...overrides,
  }));
}

const mine = (rows: readonly SecurityEventRecord[], events: readonly NewSecurityEvent[]) =>
  rows.filter((row) => events.some((event) => event.id === row.id)).sort((a, b) => (a.id < b.id ? -1 : 1));

/** Far beyond every case's window: claims every row still there. */
const END = new Date(Date.UTC(2200, 0, 1));
const LIMIT = 1000;

/** `holdSecurityEvents`, `releaseSecurityEvents`, `claimSecurityEvents`, `settleSecurityEvent`. */
export function securityEventOutboxCases({ store }: StoreCaseContext): void {
  const written: NewSecurityEvent[][] = [];
  const hold = async (events: NewSecurityEvent[], recoverAfter: Date) => {
    written.push(events);
    await outbox(store()).holdSecurityEvents(events, recoverAfter);
  };
  afterEach(async () => {
    const ids = written.flat().map((event) => event.id);
    written.length = 0;
    for (const id of ids) await outbox(store()).settleSecurityEvent(id, { kind: 'remove' });
  });

  it('a held row is not due before its recovery time, then is claimed as held with every field as written', async () => {
    const start = window();
    const events = [...newEvents(2, start), ...newEvents(1, start, { userId: null, sessionId: null })];
    await hold(events, at(start, 10 * MINUTE));
    expect(mine(await outbox(store()).claimSecurityEvents(at(start, 9 * MINUTE), at(start, 20 * MINUTE), LIMIT), events)).toEqual([]);
    const lease = at(start, 30 * MINUTE);
    const claimed = mine(await outbox(store()).claimSecurityEvents(at(start, 10 * MINUTE), lease, LIMIT), events);
    const expected = events
      .map((event) => ({ ...event, state: 'held', attempts: 0, nextAttemptAt: lease, lastError: null }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(claimed).toEqual(expected);
  });

  it('release with deliver makes the batch ready at once; a second release changes nothing', async () => {
    const start = window();
    const events = newEvents(3, start);
    await hold(events, at(start, 60 * MINUTE));
    expect(await outbox(store()).releaseSecurityEvents(events[0]!.batchId, true, at(start, 1000))).toBe(3);
    expect(await outbox(store()).releaseSecurityEvents(events[0]!.batchId, true, at(start, 2000))).toBe(0);
    const claimed = mine(await outbox(store()).claimSecurityEvents(at(start, 1000), at(start, 5 * MINUTE), LIMIT), events);
    expect(claimed.map((row) => row.state)).toEqual(['ready', 'ready', 'ready']);
  });

  it('release without deliver deletes the held batch: never claimed', async () => {
    const start = window();
    const events = newEvents(2, start);
    await hold(events, at(start, MINUTE));
    expect(await outbox(store()).releaseSecurityEvents(events[0]!.batchId, false, start)).toBe(2);
    expect(mine(await outbox(store()).claimSecurityEvents(END, at(END, MINUTE), LIMIT), events)).toEqual([]);
  });

  it('release leaves rows a recovery already claimed as they are (the batch only changes held rows once)', async () => {
    const start = window();
    const events = newEvents(1, start);
    await hold(events, at(start, MINUTE));
    const lease = at(start, 10 * MINUTE);
    expect(mine(await outbox(store()).claimSecurityEvents(at(start, MINUTE), lease, LIMIT), events)).toHaveLength(1);
    await outbox(store()).settleSecurityEvent(events[0]!.id, { kind: 'remove' });
    expect(await outbox(store()).releaseSecurityEvents(events[0]!.batchId, true, at(start, 2 * MINUTE))).toBe(0);
    expect(mine(await outbox(store()).claimSecurityEvents(END, at(END, MINUTE), LIMIT), events)).toEqual([]);
  });

  it('holding an id again keeps the stored row (a retried hold adds nothing)', async () => {
    const start = window();
    const [first] = newEvents(1, start);
    await hold([first!], at(start, MINUTE));
    await hold([{ ...first!, token: 'other.token.value', streamId: 'stream-2' }], at(start, 5 * MINUTE));
    const claimed = mine(await outbox(store()).claimSecurityEvents(at(start, MINUTE), at(start, 9 * MINUTE), LIMIT), [first!]);
    expect(claimed.map((row) => [row.token, row.streamId])).toEqual([[first!.token, 'stream-1']]);
  });

  it('a claim leases: a second claim before the lease gets nothing, one at the lease gets the rows again', async () => {
    const start = window();
    const events = newEvents(2, start);
    await hold(events, start);
    const lease = at(start, 5 * MINUTE);
    expect(mine(await outbox(store()).claimSecurityEvents(start, lease, LIMIT), events)).toHaveLength(2);
    expect(mine(await outbox(store()).claimSecurityEvents(at(start, 4 * MINUTE), at(start, 9 * MINUTE), LIMIT), events)).toEqual([]);
    expect(mine(await outbox(store()).claimSecurityEvents(lease, at(start, 9 * MINUTE), LIMIT), events)).toHaveLength(2);
  });

  it('concurrent claims never hand out one row twice', async () => {
    const start = window();
    const events = newEvents(20, start);
    await hold(events, start);
    const claims = await Promise.all(Array.from({ length: 6 }, () => outbox(store()).claimSecurityEvents(start, at(start, 5 * MINUTE), LIMIT)));
    const ids = claims.flatMap((rows) => mine(rows, events).map((row) => row.id));
    expect(ids.length).toBe(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('the oldest due rows come first, at most `limit`', async () => {
    const start = window();
    const early = newEvents(2, start);
    const late = newEvents(2, start);
    await hold(late, at(start, 2 * MINUTE));
    await hold(early, at(start, MINUTE));
    const claimed = await outbox(store()).claimSecurityEvents(at(start, 3 * MINUTE), at(start, 9 * MINUTE), 2);
    expect(claimed.map((row) => row.id).sort()).toEqual(early.map((event) => event.id).sort());
  });

  it('settle: retry is due again at its time with attempts and the error; dead is never claimed; remove deletes; an unknown id is a no-op', async () => {
    const start = window();
    const [retried, dead, removed] = newEvents(3, start);
    await hold([retried!, dead!, removed!], start);
    await outbox(store()).claimSecurityEvents(start, at(start, MINUTE), LIMIT);
    const due = at(start, 3 * MINUTE);
    await outbox(store()).settleSecurityEvent(retried!.id, { kind: 'retry', attempts: 2, nextAttemptAt: due, error: 'http_503' });
    await outbox(store()).settleSecurityEvent(dead!.id, { kind: 'dead', attempts: 7, error: 'http_400:invalid_audience' });
    await outbox(store()).settleSecurityEvent(removed!.id, { kind: 'remove' });
    await outbox(store()).settleSecurityEvent(`unknown-${randomHex(8)}`, { kind: 'retry', attempts: 1, nextAttemptAt: due, error: 'x' });
    expect(mine(await outbox(store()).claimSecurityEvents(at(due, -1), at(start, 9 * MINUTE), LIMIT), [retried!])).toEqual([]);
    const again = mine(await outbox(store()).claimSecurityEvents(due, at(start, 9 * MINUTE), LIMIT), [retried!, dead!, removed!]);
    expect(again.map((row) => ({ id: row.id, state: row.state, attempts: row.attempts, lastError: row.lastError }))).toEqual([
      { id: retried!.id, state: 'ready', attempts: 2, lastError: 'http_503' },
    ]);
    expect(mine(await outbox(store()).claimSecurityEvents(END, at(END, MINUTE), LIMIT), [dead!, removed!])).toEqual([]);
  });
}
