import { describe, expect, it } from 'vitest';
import { SessauthError } from '../src/errors/sessauth-error.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { NewSession } from '../src/store/store-port.js';

// The shared contract runs in @sessauth/conformance; these are the memory store's own choices.
function session(id: string, createdAtMs: number): NewSession {
  return {
    id,
    userId: 'u1',
    refreshJti: `jti-${id}`,
    securityStamp: 'stamp',
    createdAt: new Date(createdAtMs),
    expiresAt: new Date(createdAtMs + 86_400_000),
    ipAddress: null,
    userAgent: null,
    browser: null,
    location: null,
  };
}

describe('MemorySessionStore', () => {
  it('revokes a newcomer at once when it is older than the sessions the cap keeps', async () => {
    const store = new MemorySessionStore();
    await store.createSession({ session: session('b', 2000), maxActiveSessions: 1 });
    const late = await store.createSession({ session: session('a', 1000), maxActiveSessions: 1 });
    expect(late.expiredAt).toEqual(new Date(1000));
    expect((await store.findSession('b'))?.expiredAt).toBeNull();
  });

  it('rejects a malformed admin cursor as bad input (400), not a store fault', async () => {
    const store = new MemorySessionStore();
    const listing = store.listSessionsForAdmin({ now: new Date(), limit: 5, after: 'not a cursor' });
    await expect(listing).rejects.toBeInstanceOf(SessauthError);
    await expect(listing).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('rejects programmer errors: a non-positive cap or limit, a duplicate id', async () => {
    const store = new MemorySessionStore();
    await expect(store.createSession({ session: session('a', 1000), maxActiveSessions: 0 })).rejects.toThrow(RangeError);
    await expect(store.listSessionsForAdmin({ now: new Date(), limit: 0 })).rejects.toThrow(RangeError);
    await store.createSession({ session: session('a', 1000), maxActiveSessions: 1 });
    await expect(store.createSession({ session: session('a', 2000), maxActiveSessions: 1 })).rejects.toThrow(/duplicate/);
  });

  it('frees the memory of purged sessions', async () => {
    const store = new MemorySessionStore();
    await store.createSession({ session: session('a', 1000), maxActiveSessions: 5 });
    await store.createSession({ session: session('b', 2000), maxActiveSessions: 5 });
    expect(store.size).toBe(2);
    expect(await store.purgeExpired(new Date(1000 + 86_400_001))).toBe(1);
    expect(store.size).toBe(1);
    expect(await store.listActiveSessions('u1', new Date(3000))).toHaveLength(1);
  });
});
