import { afterEach, describe, expect, it } from 'vitest';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

/**
 * The laptop's access token lapses on the way to the server (here: the server's clock
 * runs a minute ahead of the laptop's, past the token's 60 s). The 401 `expired_token`
 * says nothing about the session: the ending call is sent again with a renewed token,
 * so "sign out everywhere" really signs the other devices out, and a logout really
 * ends the session on the server (found in CI: the demo page said "signed out" while
 * the other device refreshed on).
 */
async function laptopWithLaggingClock(transport: 'cookie' | 'body') {
  const laptop = await FakeBrowser.start({ transport, accessSeconds: 60 });
  const phone = laptop.sibling();
  const a = openTab(laptop, new InProcessLocks(), { transport, now: () => Date.now() });
  const b = openTab(phone, new InProcessLocks(), { transport });
  await a.client.login({ username: 'alice', password: 'pw' });
  await b.client.login({ username: 'alice', password: 'pw' });
  laptop.advance(61_000);
  return { laptop, a, b };
}

describe('an ending call whose access token lapsed on the way', () => {
  for (const transport of ['cookie', 'body'] as const) {
    it(`${transport}: "sign out everywhere" renews the token and signs every device out`, async () => {
      const { laptop, a, b } = await laptopWithLaggingClock(transport);
      await a.client.logoutEverywhere();
      expect(a.signOutReasons()).toEqual(['logout']);
      expect(laptop.count('/auth/logout/all/')).toBe(2); // the lapsed token's 401, then the renewed call
      // The phone's own token lapsed too: its refresh finds the session revoked.
      await expect(b.client.fetch('/me')).rejects.toMatchObject({ reason: 'revoked' });
      expect(b.signOutReasons()).toEqual(['revoked']);
    });

    it(`${transport}: a logout renews the token and ends the session on the server`, async () => {
      const { laptop, a, b } = await laptopWithLaggingClock(transport);
      const sessionId = a.client.sessionId;
      await a.client.logout();
      expect(a.signOutReasons()).toEqual(['logout']);
      expect(laptop.count('/auth/logout/')).toBe(2);
      const active = await laptop.store.listActiveSessions('u-alice', new Date(laptop.now()));
      expect(active.map((session) => session.id)).toEqual([b.client.sessionId]);
      expect(active.map((session) => session.id)).not.toContain(sessionId);
    });
  }
});
