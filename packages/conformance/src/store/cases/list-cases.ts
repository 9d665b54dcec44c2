import { expect, it } from 'vitest';
import { HOUR, MINUTE, at, expectedRecord, newSessionFixture, newUserId, testNow } from '../session-fixtures.js';
import { idsOf, type StoreCaseContext } from '../store-case-context.js';

export function listCases({ store }: StoreCaseContext): void {
  it('lists only active sessions of the user, newest first, as full records', async () => {
    const userId = newUserId();
    const base = testNow();
    const now = at(base, 2 * HOUR);
    const older = newSessionFixture({ userId, createdAt: at(base, 1 * MINUTE) });
    const newer = newSessionFixture({ userId, createdAt: at(base, 3 * MINUTE) });
    const middle = newSessionFixture({ userId, createdAt: at(base, 2 * MINUTE) });
    const revoked = newSessionFixture({ userId, createdAt: at(base, 4 * MINUTE) });
    const ended = newSessionFixture({ userId, createdAt: at(base, 5 * MINUTE), expiresAt: at(base, HOUR) });
    const stranger = newSessionFixture({ createdAt: at(base, 6 * MINUTE) });
    for (const session of [older, newer, middle, revoked, ended, stranger]) {
      await store().createSession({ session, maxActiveSessions: 10 });
    }
    expect(await store().expireSession(revoked.id, userId, at(base, 10 * MINUTE))).toBe(true);

    const listed = await store().listActiveSessions(userId, now);
    expect(idsOf(listed)).toEqual([newer.id, middle.id, older.id]);
    expect(listed).toEqual([expectedRecord(newer), expectedRecord(middle), expectedRecord(older)]);
  });

  it('treats a session whose expiresAt equals now as ended', async () => {
    const base = testNow();
    const session = newSessionFixture({ createdAt: base, expiresAt: at(base, HOUR) });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(idsOf(await store().listActiveSessions(session.userId, at(base, HOUR - 1)))).toEqual([session.id]);
    expect(await store().listActiveSessions(session.userId, at(base, HOUR))).toEqual([]);
  });

  it('returns an empty list for a user without sessions', async () => {
    expect(await store().listActiveSessions(newUserId(), testNow())).toEqual([]);
  });
}
