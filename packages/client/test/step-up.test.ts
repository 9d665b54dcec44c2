import { afterEach, describe, expect, it } from 'vitest';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

/** The claims of a compact JWT, read as any client may (no verification: the server did that). */
function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('step-up (RFC 9470) and signing out other devices, against the real engine', () => {
  for (const transport of ['cookie', 'body'] as const) {
    it(`${transport}: a stale session hears step-up-required, stepUp(password) makes it fresh, nobody is signed out`, async () => {
      const browser = await FakeBrowser.start({ transport });
      const tab = openTab(browser, new InProcessLocks(), { transport });
      const challenges: unknown[] = [];
      tab.client.on('step-up-required', (event) => challenges.push(event));
      await tab.client.login({ username: 'alice', password: 'pw' });
      expect((await tab.client.fetch('/me/fresh')).status).toBe(200);
      browser.advance(301_000);
      const stale = await tab.client.fetch('/me/fresh');
      expect(stale.status).toBe(401);
      expect(challenges).toEqual([{ url: `${browser.origin}/me/fresh`, maxAgeSeconds: 300, acrValues: [] }]);
      expect(tab.client.status).toBe('signed-in');

      await expect(tab.client.stepUp('not-the-password')).rejects.toMatchObject({ code: 'invalid_credentials' });
      expect(tab.client.status).toBe('signed-in');
      expect((await tab.client.fetch('/me/fresh')).status).toBe(401);

      const sessionId = tab.client.sessionId;
      // The engine's clock is the real one plus an offset, so a second may tick during the step-up.
      const before = Math.floor(browser.now() / 1000);
      await tab.client.stepUp('pw');
      const after = Math.floor(browser.now() / 1000);
      expect((await tab.client.fetch('/me/fresh')).status).toBe(200);
      expect(tab.client.sessionId).toBe(sessionId);
      // The tab's new access token carries the step-up's auth_time (RFC 9068), not the login's.
      const authTime = claimsOf(await tab.client.accessToken()).auth_time as number;
      expect(authTime).toBeGreaterThanOrEqual(before);
      expect(authTime).toBeLessThanOrEqual(after);
      expect(tab.signOutReasons()).toEqual([]);
      expect(browser.reuseDetected).toBe(0);
    });

    it(`${transport}: logoutOthers ends the other devices and keeps this one`, async () => {
      const laptop = await FakeBrowser.start({ transport });
      const phone = laptop.sibling();
      const a = openTab(laptop, new InProcessLocks(), { transport });
      const b = openTab(phone, new InProcessLocks(), { transport });
      await a.client.login({ username: 'alice', password: 'pw' });
      await b.client.login({ username: 'alice', password: 'pw' });
      await a.client.logoutOthers();
      expect(a.client.status).toBe('signed-in');
      expect((await a.client.fetch('/me')).status).toBe(200);
      const active = await laptop.store.listActiveSessions('u-alice', new Date(laptop.now()));
      expect(active.map((session) => session.id)).toEqual([a.client.sessionId]);
      await b.client.fetch('/me');
      expect(b.signOutReasons()).toEqual(['revoked']);
    });
  }
});
