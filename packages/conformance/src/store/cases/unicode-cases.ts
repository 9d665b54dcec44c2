import { expect, it } from 'vitest';
import { MINUTE, at, expectedRecord, newSessionFixture, randomHex, testNow } from '../session-fixtures.js';
import { adminListing, idsOf, mustFind, nth, type StoreCaseContext } from '../store-case-context.js';

/** Emoji (non-BMP), a ZWJ sequence, CJK, combining marks, right-to-left and math letters. */
const UNICODE_USER_AGENT = 'Mozilla/5.0 😀 👩‍💻 浏览器 é (e\u0301) עברית 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 Ω≈ç√';
const UNICODE_CITY = 'Zürich 🏔️ 北京 𝒞𝒾𝓉𝓎';

/** Exactly 512 UTF-16 code units (the core's cap), with surrogate pairs along the way, none split. */
function longUserAgent(): string {
  return `${'ab😀c'.repeat(102)}xy`; // 5 code units x 102 + 2
}

export function unicodeCases({ store }: StoreCaseContext): void {
  it('round-trips non-ASCII and non-BMP text in userAgent, browser and location exactly', async () => {
    const session = newSessionFixture({
      userAgent: UNICODE_USER_AGENT,
      browser: 'Navigateur 😀 1.0 sur Système',
      location: { city: UNICODE_CITY, region: 'Région Île-de-France', country: 'Österreich', country_code: 'AT' },
    });
    const created = await store().createSession({ session, maxActiveSessions: 10 });
    expect(created).toEqual(expectedRecord(session));
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
    const listed = await store().listActiveSessions(session.userId, at(session.createdAt, MINUTE));
    expect(listed).toEqual([expectedRecord(session)]);
    // The admin listing is an optional capability of the port.
    if (store().listSessionsForAdmin !== undefined) {
      const page = await adminListing(store())({ userId: session.userId, now: session.createdAt, limit: 5 });
      expect(page.sessions).toEqual([expectedRecord(session)]);
    }
  });

  it('round-trips a 512-code-unit User-Agent with surrogate pairs', async () => {
    const userAgent = longUserAgent();
    expect(userAgent.length).toBe(512);
    const session = newSessionFixture({ userAgent });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect((await mustFind(store(), session.id)).userAgent).toBe(userAgent);
  });

  it('round-trips and matches non-ASCII user ids', async () => {
    const userId = `josé-${randomHex(4)}-用户-😀`;
    const session = newSessionFixture({ userId });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect((await mustFind(store(), session.id)).userId).toBe(userId);
    expect(idsOf(await store().listActiveSessions(userId, testNow()))).toEqual([session.id]);
  });

  it('matches user ids exactly: case and accents make different users', async () => {
    const stem = randomHex(4);
    const variants = [`jose-${stem}`, `JOSE-${stem}`, `josé-${stem}`];
    const sessions = variants.map((userId) => newSessionFixture({ userId }));
    for (const session of sessions) await store().createSession({ session, maxActiveSessions: 1 });
    for (const session of sessions) {
      expect(idsOf(await store().listActiveSessions(session.userId, testNow())), session.userId).toEqual([session.id]);
    }
    const [lower, upper] = [nth(sessions, 0), nth(sessions, 1)];
    expect(await store().expireSession(lower.id, upper.userId, testNow())).toBe(false);
    const rotation = {
      sessionId: lower.id,
      userId: upper.userId,
      presentedJti: lower.refreshJti,
      nextJti: randomHex(),
      securityStamp: lower.securityStamp,
      now: testNow(),
    };
    expect(await store().rotateRefresh(rotation)).toEqual({ status: 'wrong_user' });
    expect(await store().expireAllForUser(upper.userId, testNow())).toBe(1);
    expect((await mustFind(store(), lower.id)).expiredAt).toBeNull();
  });

  it('matches session ids exactly: an upper-cased id is another id', async () => {
    const session = newSessionFixture({ id: `${randomHex()}abcdef` });
    await store().createSession({ session, maxActiveSessions: 10 });
    expect(await store().findSession(session.id.toUpperCase())).toBeNull();
    expect(await store().expireSession(session.id.toUpperCase(), session.userId, testNow())).toBe(false);
  });
}
