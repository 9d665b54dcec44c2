import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/errors/sessauth-error.js';
import { coalesceSessionReads, SESSION_READ_BATCH_LIMIT } from '../src/store/coalesce-session-reads.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { NewSession, SessionRecord } from '../src/store/store-port.js';

function session(id: string): NewSession {
  const createdAt = new Date(1_700_000_000_000);
  return {
    id,
    userId: `user-${id}`,
    refreshJti: `jti-${id}`,
    securityStamp: 'stamp',
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 86_400_000),
    ipAddress: null,
    userAgent: null,
    browser: null,
    location: null,
  };
}

/** The memory store, recording each read it is asked for and able to hold its batched reads. */
class RecordingStore extends MemorySessionStore {
  readonly singles: string[] = [];
  readonly batches: string[][] = [];
  /** While set, a batched read waits for it before it reads (a slow database). */
  gate: Promise<void> | null = null;
  failWith: Error | null = null;

  override findSession(id: string): Promise<SessionRecord | null> {
    this.singles.push(id);
    return super.findSession(id);
  }

  override async findSessions(ids: readonly string[]): Promise<Map<string, SessionRecord>> {
    this.batches.push([...ids]);
    const gate = this.gate;
    if (gate !== null) await gate;
    if (this.failWith !== null) throw this.failWith;
    return super.findSessions(ids);
  }
}

async function seeded(count: number): Promise<RecordingStore> {
  const store = new RecordingStore();
  for (let index = 0; index < count; index += 1) await store.createSession({ session: session(`s${index}`), maxActiveSessions: 10 });
  return store;
}

describe('coalesceSessionReads', () => {
  it('sends a lone read at once; the reads that arrive while it is in flight go out together at the end of their turn', async () => {
    const store = await seeded(3);
    const reads = coalesceSessionReads(store);
    const found = await Promise.all(['s0', 's1', 'nope', 's2', 's1'].map((id) => reads.findSession(id)));
    expect(store.singles).toEqual(['s0']);
    expect(store.batches).toEqual([['s1', 'nope', 's2']]);
    expect(found.map((record) => record?.id ?? null)).toEqual(['s0', 's1', null, 's2', 's1']);
    expect(found[1]).toEqual(await store.findSession('s1'));
  });

  it('sends a batch of one as a plain findSession', async () => {
    const store = await seeded(2);
    const reads = coalesceSessionReads(store);
    expect((await reads.findSession('s0'))?.id).toBe('s0');
    expect(store.singles).toEqual(['s0']);
    // One read in flight, one more arrives in its turn: alone in its batch, still findSession.
    await Promise.all([reads.findSession('s0'), reads.findSession('s1')]);
    expect(store.singles).toEqual(['s0', 's0', 's1']);
    expect(store.batches).toEqual([]);
  });

  it(`splits a turn into batches of at most ${SESSION_READ_BATCH_LIMIT}, all sent at once`, async () => {
    const store = await seeded(SESSION_READ_BATCH_LIMIT * 2 + 2);
    let open!: () => void;
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const reads = coalesceSessionReads(store);
    const ids = Array.from({ length: SESSION_READ_BATCH_LIMIT * 2 + 2 }, (_, index) => `s${index}`);
    const pending = Promise.all(ids.map((id) => reads.findSession(id)));
    await new Promise((resolve) => setImmediate(resolve));
    // The first went alone; both full batches are in flight before either answered; the last id went alone.
    expect(store.batches.map((batch) => batch.length)).toEqual([SESSION_READ_BATCH_LIMIT, SESSION_READ_BATCH_LIMIT]);
    expect(store.singles).toEqual([ids[0], ids.at(-1)]);
    open();
    expect((await pending).map((record) => record?.id)).toEqual(ids);
  });

  it('never joins a read already under way: a revocation made meanwhile is seen by the next caller', async () => {
    const store = await seeded(3);
    let open!: () => void;
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const reads = coalesceSessionReads(store);
    const early = Promise.all(['s2', 's0', 's1'].map((id) => reads.findSession(id)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.batches).toEqual([['s0', 's1']]);
    // Revoked and acknowledged while that batch is held; the later request must see it.
    expect(await store.expireSession('s0', 'user-s0', new Date(1_700_000_060_000))).toBe(true);
    store.gate = null;
    const late = await Promise.all([reads.findSession('s0'), reads.findSession('s1')]);
    expect(late[0]?.expiredAt).toEqual(new Date(1_700_000_060_000));
    expect(store.batches).toHaveLength(2);
    open();
    const [, earlyS0] = await early;
    // The held batch started before the revocation: it may show the session active.
    expect(earlyS0?.id).toBe('s0');
  });

  it('fails closed: a failed batch rejects every caller with the store error', async () => {
    const store = await seeded(2);
    const failure = new StoreUnavailableError('the database went away', { operation: 'findSessions' });
    store.failWith = failure;
    const reads = coalesceSessionReads(store);
    const outcomes = await Promise.allSettled(['s1', 's0', 's1', 's0'].map((id) => reads.findSession(id)));
    // The first went alone (and read); the three that waited for it shared the failed batch.
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled' });
    expect(outcomes.slice(1)).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: failure })));
    // The next turn reads again.
    store.failWith = null;
    expect((await Promise.all([reads.findSession('s0'), reads.findSession('s1')])).map((r) => r?.id)).toEqual(['s0', 's1']);
  });

  it('leaves a store without findSessions as it is, and keeps every other method bound to the store', async () => {
    const plain = new MemorySessionStore();
    const withoutBatch = Object.assign(Object.create(plain) as MemorySessionStore, { findSessions: undefined });
    expect(coalesceSessionReads(withoutBatch)).toBe(withoutBatch);
    const store = await seeded(1);
    const reads = coalesceSessionReads(store);
    // A private field behind a method: `this` must still be the store.
    expect(await reads.expireSession('s0', 'user-s0', new Date(1_700_000_060_000))).toBe(true);
    expect((await reads.listActiveSessions('user-s0', new Date(1_700_000_060_000))).length).toBe(0);
  });
});
