import { describe, expect, it } from 'vitest';
import type { SessauthError } from '../src/errors/sessauth-error.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { SessionRecord, SessionStore } from '../src/store/store-port.js';
import { createHarness, USERS } from './helpers/sessauth-harness.js';

/**
 * A store that is not the memory store (which the engine never coalesces) but keeps its rows
 * in one, counting the reads it is asked for: what a database store looks like to the engine.
 */
function countingStore(): { store: SessionStore & Required<Pick<SessionStore, 'listSessionsForAdmin'>>; singles: string[]; batches: string[][] } {
  const rows = new MemorySessionStore();
  const singles: string[] = [];
  const batches: string[][] = [];
  const store = new Proxy(rows, {
    get(target, key) {
      if (key === 'findSession') {
        return (id: string) => {
          singles.push(id);
          return target.findSession(id);
        };
      }
      if (key === 'findSessions') {
        return async (ids: readonly string[]): Promise<Map<string, SessionRecord>> => {
          batches.push([...ids]);
          // A database answers on a later turn.
          await new Promise((resolve) => setImmediate(resolve));
          return target.findSessions(ids);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    getPrototypeOf: () => Object.prototype,
  });
  return { store, singles, batches };
}

async function signedIn(coalesceSessionReads: boolean | undefined) {
  const counted = countingStore();
  const { auth } = await createHarness({ store: counted.store, options: coalesceSessionReads === undefined ? {} : { coalesceSessionReads } });
  const user = USERS[0]!;
  const sessions = await Promise.all([0, 1, 2, 3].map(() => auth.createSessionFor(user.id, { ip: null })));
  counted.singles.length = 0;
  return { auth, sessions, ...counted };
}

describe('the guard with coalesced session reads', () => {
  it('by default: concurrent guarded requests share batched reads, each gets its own session', async () => {
    const { auth, sessions, singles, batches } = await signedIn(undefined);
    const contexts = await Promise.all(sessions.map((s) => auth.authenticate({ authorization: [`Bearer ${s.access_token}`] })));
    expect(contexts.map((context) => context.session.id)).toEqual(sessions.map((s) => s.session_id));
    // The first read went alone; the three that arrived while it was in flight went together.
    expect(singles).toHaveLength(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(3);
  });

  it('a session revoked before the requests arrive is refused to all of them', async () => {
    const { auth, sessions, store } = await signedIn(true);
    const [target] = sessions;
    expect(await store.expireSession(target!.session_id, USERS[0]!.id, new Date())).toBe(true);
    const outcomes = await Promise.allSettled(
      [...sessions, target, target].map((s) => auth.authenticate({ authorization: [`Bearer ${s!.access_token}`] })),
    );
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const outcome of refused) expect((outcome.reason as SessauthError).code).toBe('session_expired');
  });

  it('JWT_COALESCE_SESSION_READS=false: one findSession per request, never a batch', async () => {
    const { auth, sessions, singles, batches } = await signedIn(false);
    await Promise.all(sessions.map((s) => auth.authenticate({ authorization: [`Bearer ${s.access_token}`] })));
    expect(singles).toHaveLength(4);
    expect(batches).toEqual([]);
  });

  it('never coalesces the memory store (its read answers within the turn)', async () => {
    const store = new MemorySessionStore();
    let batches = 0;
    const findSessions = store.findSessions.bind(store);
    store.findSessions = (ids) => {
      batches += 1;
      return findSessions(ids);
    };
    const { auth } = await createHarness({ store, options: { coalesceSessionReads: true } });
    const created = await Promise.all([0, 1, 2].map(() => auth.createSessionFor(USERS[0]!.id, { ip: null })));
    await Promise.all(created.map((s) => auth.authenticate({ authorization: [`Bearer ${s.access_token}`] })));
    expect(batches).toBe(0);
  });
});
