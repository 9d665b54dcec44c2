import { randomUUID } from 'node:crypto';
import { StoreUnavailableError, type LogFields, type Logger } from '@sessauth/core';
import type { NewSession } from '@sessauth/core/store';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURABILITY_UNMET, RedisSessionStore } from '../src/index.js';
import { deleteByPrefix, randomPrefix, reachLocalRedis } from './redis-test-kit.js';

/** Captures what the store logs. */
function capturingLogger(): Logger & { lines: Array<{ event: string; fields: LogFields | undefined }> } {
  const lines: Array<{ event: string; fields: LogFields | undefined }> = [];
  return {
    lines,
    warn: (event, fields) => void lines.push({ event, fields }),
    error: (event, fields) => void lines.push({ event, fields }),
  };
}

function newSession(userId: string, id = randomUUID()): NewSession {
  const now = new Date();
  return {
    id,
    userId,
    refreshJti: randomUUID(),
    securityStamp: 'stamp',
    createdAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    ipAddress: null,
    userAgent: null,
    browser: null,
    location: null,
  };
}

describe('RedisSessionStore durability: a setting that cannot work is refused at construction', () => {
  const client = { pipeline: () => ({}) } as unknown as Redis;
  it.each([
    [{ replicas: 0, timeoutMs: 100 }, /replicas must be a positive integer/],
    [{ replicas: 1.5, timeoutMs: 100 }, /replicas must be a positive integer/],
    [{ replicas: 1, timeoutMs: 0 }, /timeoutMs must be a positive integer/],
    [{ replicas: 1, timeoutMs: 2000 }, /below operationTimeoutMs/],
  ])('%j', (durability, message) => {
    expect(() => new RedisSessionStore({ client, durability })).toThrow(message);
  });

  it('a client without pipeline() cannot wait for replicas', () => {
    expect(() => new RedisSessionStore({ client: {} as unknown as Redis, durability: { replicas: 1, timeoutMs: 100 } })).toThrow(/pipeline/);
  });
});

// The local Redis has no replica: WAIT 1 answers 0, so every state change fails closed.
describe('RedisSessionStore durability on a server without replicas: every state change fails closed and is logged', () => {
  let client: Redis | null = null;
  const prefix = randomPrefix();
  beforeAll(async () => {
    client = await reachLocalRedis();
  });
  afterAll(async () => {
    if (client === null) return;
    await deleteByPrefix(client, prefix);
    client.disconnect();
  });

  it('create, rotate, revoke, expire-all, rename, step-up, activity, the security-event outbox: 503 and one log line each, naming no key or token', async (context) => {
    if (client === null) return context.skip();
    const userId = `user-${randomUUID()}`;
    const plain = new RedisSessionStore({ client, keyPrefix: prefix });
    const logger = capturingLogger();
    const durable = new RedisSessionStore({ client, keyPrefix: prefix, logger, durability: { replicas: 1, timeoutMs: 50 } });
    // A session written without the setting, so each write below has something to change.
    const session = await plain.createSession({ session: newSession(userId), maxActiveSessions: 10 });
    const now = new Date();
    const eventId = randomUUID();
    const batchId = randomUUID();

    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['createSession', () => durable.createSession({ session: newSession(userId), maxActiveSessions: 10 })],
      [
        'rotateRefresh',
        () =>
          durable.rotateRefresh({
            sessionId: session.id,
            userId,
            presentedJti: session.refreshJti,
            nextJti: randomUUID(),
            securityStamp: 'stamp',
            now,
          }),
      ],
      ['renameSession', () => durable.renameSession(session.id, userId, 'laptop', now)],
      ['recordStepUp', () => durable.recordStepUp({ sessionId: session.id, userId, now, authTime: now, amr: ['pwd'], acr: null })],
      ['expireSession', () => durable.expireSession(session.id, userId, now)],
      ['expireAllForUser', () => durable.expireAllForUser(userId, now)],
      [
        'appendActivity',
        () =>
          durable.appendActivity({
            entries: [
              {
                id: `${now.getTime()}-1`,
                sessionId: session.id,
                userId,
                kind: 'refreshed',
                at: now,
                expiresAt: new Date(now.getTime() + 60_000),
                ipAddress: null,
                browser: null,
                location: null,
                detail: null,
              },
            ],
            maxEntriesPerSession: 10,
          }),
      ],
      [
        'holdSecurityEvents',
        () =>
          durable.holdSecurityEvents(
            [{ id: eventId, batchId, streamId: 'stream', token: 'set-token', userId, sessionId: session.id, createdAt: now }],
            new Date(now.getTime() + 60_000),
          ),
      ],
      ['releaseSecurityEvents', () => durable.releaseSecurityEvents(batchId, true, now)],
      ['claimSecurityEvents', () => durable.claimSecurityEvents(now, new Date(now.getTime() + 60_000), 10)],
      ['settleSecurityEvent', () => durable.settleSecurityEvent(eventId, { kind: 'remove' })],
    ];
    for (const [operation, attempt] of attempts) {
      const failure = await attempt().then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure, operation).toBeInstanceOf(StoreUnavailableError);
      expect(failure).toMatchObject({ status: 503 });
      expect(logger.lines.at(-1)).toEqual({
        event: DURABILITY_UNMET,
        fields: { operation, acknowledged: 0, required: 1, timeoutMs: 50 },
      });
    }
    // Nothing secret in any line: no session id, user id or refresh token id.
    const logged = JSON.stringify(logger.lines);
    for (const secret of [session.id, userId, session.refreshJti]) expect(logged).not.toContain(secret);
    // Reads do not wait: the guard's read still answers.
    expect((await durable.findSession(session.id))?.id).toBe(session.id);
  });

  it('without the setting nothing waits: the same writes succeed on the same server', async (context) => {
    if (client === null) return context.skip();
    const userId = `user-${randomUUID()}`;
    const store = new RedisSessionStore({ client, keyPrefix: prefix });
    const session = await store.createSession({ session: newSession(userId), maxActiveSessions: 10 });
    expect(await store.expireSession(session.id, userId, new Date())).toBe(true);
  });
});
