import { StoreSchemaError, StoreUnavailableError, type SessionStore } from '@sessauth/core';
import { newSessionFixture } from '@sessauth/conformance';
import { expect } from 'vitest';
// This store has no Shared Signals outbox (an optional capability): its calls are not in the list.
import type { SecurityEventOutbox } from '@sessauth/core/store';

/** Every method of the port; the activity operations where the store has them (its `activity` option). */
type StoreUnderFault = Required<Omit<SessionStore, 'findSessions' | 'appendActivity' | 'listActivity' | keyof SecurityEventOutbox>> &
  Pick<SessionStore, 'appendActivity' | 'listActivity'>;

/** Every method of the port, called with harmless arguments. */
export function everyCall(store: StoreUnderFault): Array<[string, () => Promise<unknown>]> {
  const now = new Date();
  const session = newSessionFixture();
  const rotation = { sessionId: session.id, userId: session.userId, presentedJti: 'a', nextJti: 'b', securityStamp: 's', now };
  return [
    ['findSession', () => store.findSession(session.id)],
    ['createSession', () => store.createSession({ session, maxActiveSessions: 3 })],
    ['listActiveSessions', () => store.listActiveSessions(session.userId, now)],
    ['rotateRefresh', () => store.rotateRefresh(rotation)],
    ['expireSession', () => store.expireSession(session.id, session.userId, now)],
    ['expireAllForUser', () => store.expireAllForUser(session.userId, now)],
    ['renameSession', () => store.renameSession(session.id, session.userId, 'laptop', now)],
    ['touchSession', () => store.touchSession(session.id, now)],
    ['purgeExpired', () => store.purgeExpired(now)],
    ['listSessionsForAdmin', () => store.listSessionsForAdmin({ now, limit: 10 })],
    ['checkSchema', () => store.checkSchema()],
    ...(store.appendActivity === undefined || store.listActivity === undefined
      ? []
      : ([
          [
            'appendActivity',
            () =>
              store.appendActivity?.({
                entries: [
                  {
                    id: 'a',
                    sessionId: session.id,
                    userId: session.userId,
                    kind: 'created',
                    at: now,
                    expiresAt: now,
                    ipAddress: null,
                    browser: null,
                    location: null,
                    detail: null,
                  },
                ],
                maxEntriesPerSession: 5,
              }),
          ],
          ['listActivity', () => store.listActivity?.({ userId: session.userId, sessionIds: [session.id], now })],
        ] as Array<[string, () => Promise<unknown>]>)),
  ];
}

/** Each call (all at once) rejects with StoreUnavailableError whose message names the operation (checkSchema: or a StoreSchemaError). */
export async function expectEveryCallUnavailable(store: StoreUnderFault): Promise<void> {
  const calls = everyCall(store);
  const errors = await Promise.all(
    calls.map(([, call]) =>
      call().then(
        () => null,
        (e: unknown) => e,
      ),
    ),
  );
  for (const [index, [name]] of calls.entries()) {
    const error = errors[index];
    expect(error, name).toBeInstanceOf(StoreUnavailableError);
    if (error instanceof StoreSchemaError) expect(name).toBe('checkSchema');
    else expect((error as Error).message, name).toMatch(new RegExp(`^@sessauth/prisma: ${name} (failed|timed out)`));
  }
}
