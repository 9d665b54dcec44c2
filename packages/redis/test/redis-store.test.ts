import { newSessionFixture } from '@sessauth/conformance';
import { StoreUnavailableError, type Logger } from '@sessauth/core';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSISTENCE_WARNING, RedisRateLimitStore, RedisSessionStore } from '../src/index.js';
import { KeyLayout } from '../src/keys.js';
import { digestOf } from '../src/redis-rate-limit-store.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis } from './redis-test-kit.js';

const DAY_MS = 86_400_000;
const RETENTION_S = 3 * 86_400;

describe('RedisSessionStore on a real Redis: layout, TTLs, repair, scripts', () => {
  let client: Redis | null = null;
  const keyPrefix = randomPrefix();
  const keys = new KeyLayout(keyPrefix);
  const redis = (): Redis => client as Redis;
  const newStore = (ownerCacheSize?: number) => new RedisSessionStore({ client: redis(), keyPrefix, retentionSeconds: RETENTION_S, ownerCacheSize });

  beforeAll(async () => {
    client = await reachLocalRedis();
  });
  afterAll(async () => {
    if (client === null) return;
    await deleteByPrefix(client, keyPrefix);
    await client.quit();
  });

  it('writes the documented keys, each with a TTL of its natural end plus the retention', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const session = newSessionFixture({ userId: 'a{b}c%' });
    await newStore().createSession({ session, maxActiveSessions: 5 });
    const hashKey = `${keyPrefix}{u:a%7Bb%7Dc%25}:s:${session.id}`;
    expect(keys.session(session.userId, session.id)).toBe(hashKey);
    expect(await redis().hget(hashKey, 'refreshJti')).toBe(session.refreshJti);
    expect(await redis().get(keys.owner(session.id))).toBe(session.userId);
    expect(await redis().zscore(keys.activeIndex(session.userId), session.id)).toBe(String(session.createdAt.getTime()));
    expect(await redis().zscore(keys.allIndex(session.userId), session.id)).not.toBeNull();
    expect(await redis().zscore(keys.allSessions, session.id)).not.toBeNull();

    const lifetime = 14 * DAY_MS + RETENTION_S * 1000;
    for (const key of [hashKey, keys.owner(session.id), keys.activeIndex(session.userId)]) {
      const ttl = await redis().pttl(key);
      expect(ttl, key).toBeGreaterThan(lifetime - 60_000);
      expect(ttl, key).toBeLessThanOrEqual(lifetime);
    }
  });

  it('the activity history is one bounded list per session under its user tag, expiring with its newest entry; an unreadable entry is skipped', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const store = newStore();
    const userId = 'a{b}c%';
    const sessionId = 'activity-session';
    const now = Date.now();
    const entry = (n: number, expiresInMs: number) => ({
      id: `${String(now + n).padStart(13, '0')}-${n}`,
      sessionId,
      userId,
      kind: 'refreshed' as const,
      at: new Date(now + n),
      expiresAt: new Date(now + expiresInMs),
      ipAddress: null,
      browser: null,
      location: null,
      detail: null,
    });
    await store.appendActivity({ entries: [entry(1, DAY_MS), entry(2, 2 * DAY_MS), entry(3, DAY_MS)], maxEntriesPerSession: 2 });
    const listKey = `${keyPrefix}{u:a%7Bb%7Dc%25}:a:${sessionId}`;
    expect(keys.activity(userId, sessionId)).toBe(listKey);
    expect(await redis().llen(listKey)).toBe(2);
    // The latest expiry among the entries, never shortened by a later append of shorter ones.
    const ttl = await redis().pttl(listKey);
    expect(ttl).toBeGreaterThan(2 * DAY_MS - 60_000);
    await store.appendActivity({ entries: [entry(4, 60_000)], maxEntriesPerSession: 2 });
    expect(await redis().pttl(listKey)).toBeGreaterThan(2 * DAY_MS - 60_000);
    await redis().rpush(listKey, 'not json');
    const read = await store.listActivity({ userId, sessionIds: [sessionId], now: new Date(now) });
    expect(read.get(sessionId)?.map((one) => one.id)).toEqual([entry(3, 0).id, entry(4, 0).id]);
  });

  it('a hash written before step-up (no authTime, amr, acr) reads authTime = createdAt and amr [], and can step up', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const session = newSessionFixture({ acr: 'urn:example:old' });
    const store = newStore();
    await store.createSession({ session, maxActiveSessions: 5 });
    const hashKey = keys.session(session.userId, session.id);
    expect(await redis().hmget(hashKey, 'authTime', 'amr', 'acr')).toEqual([String(session.createdAt.getTime()), '["pwd"]', 'urn:example:old']);
    await redis().hdel(hashKey, 'authTime', 'amr', 'acr');
    expect(await store.findSession(session.id)).toMatchObject({ authTime: session.createdAt, amr: [], acr: null });
    const later = new Date(session.createdAt.getTime() + 60_000);
    expect(await store.recordStepUp({ sessionId: session.id, userId: session.userId, authTime: later, amr: ['otp'], acr: null, now: later })).toBe(
      true,
    );
    expect(await redis().hmget(hashKey, 'authTime', 'amr', 'acr')).toEqual([String(later.getTime()), '["otp"]', null]);
  });

  it('shortens a revoked session to the retention window and drops it from the active index', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const session = newSessionFixture();
    await newStore().createSession({ session, maxActiveSessions: 5 });
    expect(await newStore().expireSession(session.id, session.userId, new Date())).toBe(true);
    const ttl = await redis().pttl(keys.session(session.userId, session.id));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RETENTION_S * 1000);
    expect(await redis().zscore(keys.activeIndex(session.userId), session.id)).toBeNull();
  });

  it('listing repairs an index entry whose hash is gone, in the same round trip', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const store = newStore();
    const [kept, lost] = [newSessionFixture(), newSessionFixture()];
    const userId = kept.userId;
    await store.createSession({ session: kept, maxActiveSessions: 5 });
    await store.createSession({ session: { ...lost, userId }, maxActiveSessions: 5 });
    await redis().del(keys.session(userId, lost.id)); // as if its TTL had fired
    const listed = await store.listActiveSessions(userId, new Date());
    expect(listed.map((s) => s.id)).toEqual([kept.id]);
    expect(await redis().zscore(keys.activeIndex(userId), lost.id)).toBeNull();
    // The admin listing repairs the global index the same way.
    const page = await store.listSessionsForAdmin({ now: new Date(), limit: 1000 });
    expect(page.sessions.map((s) => s.id)).not.toContain(lost.id);
    expect(await redis().zscore(keys.allSessions, lost.id)).toBeNull();
  });

  it('reloads its scripts after SCRIPT FLUSH (NOSCRIPT), applying each change once', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const store = newStore();
    const session = newSessionFixture();
    await store.createSession({ session, maxActiveSessions: 5 });
    await redis().script('FLUSH');
    const outcome = await store.rotateRefresh({
      sessionId: session.id,
      userId: session.userId,
      presentedJti: session.refreshJti,
      nextJti: 'next-jti',
      securityStamp: session.securityStamp,
      now: new Date(),
    });
    expect(outcome.status).toBe('consumed');
    expect((await store.findSession(session.id))?.refreshJti).toBe('next-jti');
  });

  // Revocation seen at once by another instance that had the session cached: the
  // kit's cross-instance cases (redis-conformance.test.ts) prove it on every store.

  it('a stale owner in the cache (id purged, then re-used by another user) falls back to the pointer', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const [cached, other] = [newStore(), newStore()];
    const session = newSessionFixture();
    await cached.createSession({ session, maxActiveSessions: 5 });
    // Delete it the way purge does, behind the caching instance's back.
    await redis().del(keys.session(session.userId, session.id), keys.owner(session.id));
    const reborn = newSessionFixture({ id: session.id });
    await other.createSession({ session: reborn, maxActiveSessions: 5 });
    expect((await cached.findSession(session.id))?.userId).toBe(reborn.userId);
    await cached.touchSession(session.id, new Date(reborn.createdAt.getTime() + 60_000));
    expect((await other.findSession(session.id))?.lastActivityAt.getTime()).toBe(reborn.createdAt.getTime() + 60_000);
  });

  it("refuses an id that another user's session already holds, leaving that session alone", async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const store = newStore();
    const session = newSessionFixture();
    await store.createSession({ session, maxActiveSessions: 5 });
    const clash = newSessionFixture({ id: session.id });
    await expect(store.createSession({ session: clash, maxActiveSessions: 5 })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect((await newStore().findSession(session.id))?.userId).toBe(session.userId);
    expect(await store.listActiveSessions(clash.userId, new Date())).toEqual([]);
  });

  it('rejects a malformed admin cursor with invalid_request, not a store fault', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const listing = newStore().listSessionsForAdmin({ now: new Date(), limit: 5, after: 'not a cursor!' });
    await expect(listing).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('checkPersistence warns exactly when the server could lose an acknowledged write', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const warnings: string[] = [];
    const logger: Logger = { warn: (event) => warnings.push(event), error: () => undefined };
    const report = await new RedisSessionStore({ client: redis(), keyPrefix, logger }).checkPersistence();
    const [, appendonly] = (await redis().config('GET', 'appendonly')) as string[];
    const [, appendfsync] = (await redis().config('GET', 'appendfsync')) as string[];
    const durable = appendonly === 'yes' && appendfsync === 'always';
    expect(report.durable).toBe(durable);
    expect(report.nodes).toEqual([{ appendonly, appendfsync }]);
    expect(warnings).toEqual(durable ? [] : [PERSISTENCE_WARNING]);
  });

  it('the limiter keys its counter under the prefix with a TTL of one window', async (test) => {
    if (client === null) return test.skip('its server is unreachable (named in the skip line above)');
    const limiter = new RedisRateLimitStore({ client: redis(), keyPrefix });
    const now = new Date();
    const { count, resetAt } = await limiter.hit('login:198.51.100.1', 30, now);
    expect(count).toBe(1);
    const ttl = await redis().pttl(keys.counter(digestOf('login:198.51.100.1')));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(resetAt.getTime() - now.getTime()).toBeLessThanOrEqual(30_000);
  });
});
