import { afterEach, describe, expect, it } from 'vitest';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab, settle, type Tab } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

/** Every tab fires `perTab` requests at once; resolves the statuses. */
async function burst(tabs: Tab[], perTab: number): Promise<number[]> {
  const all = tabs.flatMap((tab) => Array.from({ length: perTab }, () => tab.client.fetch('/me').then((r) => r.status)));
  return Promise.all(all);
}

describe('refresh across the tabs of one browser (cookie transport)', () => {
  it('lets a freshly opened tab adopt a live token instead of refreshing', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const locks = new InProcessLocks();
    const first = openTab(browser, locks);
    await first.client.login({ username: 'alice', password: 'pw' });
    const later = [openTab(browser, locks), openTab(browser, locks), openTab(browser, locks)];
    expect(await Promise.all(later.map((tab) => tab.client.restore()))).toEqual([true, true, true]);
    expect(browser.count('/auth/refresh/')).toBe(0);
    expect(later.map((tab) => tab.events)).toEqual([['signed-in:other-tab'], ['signed-in:other-tab'], ['signed-in:other-tab']]);
    expect(later.every((tab) => tab.client.sessionId === first.client.sessionId)).toBe(true);
  });

  it('keeps the news alive after the tab that made it closed', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const locks = new InProcessLocks();
    const a = openTab(browser, locks);
    await a.client.login({ username: 'alice', password: 'pw' });
    const b = openTab(browser, locks);
    expect(await b.client.restore()).toBe(true);
    a.client.close(); // its marker goes with it; b holds a copy
    await settle();
    const c = openTab(browser, locks);
    expect(await c.client.restore()).toBe(true);
    expect(c.events).toEqual(['signed-in:other-tab']);
    await b.client.logout();
    await settle();
    b.client.close();
    // A tab opened after the sign-out reads it from the lock manager and does not try the cookie.
    const d = openTab(browser, locks);
    expect(await d.client.restore()).toBe(false);
    expect(browser.count('/auth/refresh/')).toBe(0);
  });

  it('four tabs, ten requests each, across three expiries: one refresh per expiry and no reuse', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const locks = new InProcessLocks();
    const tabs = [openTab(browser, locks), openTab(browser, locks), openTab(browser, locks), openTab(browser, locks)];
    await tabs[0]!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    for (let round = 1; round <= 3; round++) {
      browser.advance(61_000);
      const statuses = await burst(tabs, 10);
      expect(statuses).toEqual(Array(40).fill(200));
      expect(browser.count('/auth/refresh/')).toBe(round);
    }
    expect(browser.reuseDetected).toBe(0);
    await settle();
    // Each tab saw three refreshes: its own or adopted from the one that did it.
    for (const tab of tabs.slice(1)) {
      expect(tab.events.filter((e) => e.startsWith('refreshed')).length).toBe(3);
    }
  });

  it('stays safe when the channel says nothing: the lock alone prevents a replay', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const locks = new InProcessLocks();
    const silent = { channel: () => ({ postMessage() {}, onmessage: null, close() {} }) };
    const tabs = [openTab(browser, locks, silent), openTab(browser, locks, silent), openTab(browser, locks, silent)];
    await tabs[0]!.client.login({ username: 'alice', password: 'pw' });
    for (const tab of tabs.slice(1)) expect(await tab.client.restore()).toBe(true);
    browser.advance(61_000);
    expect(await burst(tabs, 10)).toEqual(Array(30).fill(200));
    expect(browser.reuseDetected).toBe(0);
    // Without news from the others each tab refreshed for itself, one after the other, with the newest cookie.
    expect(browser.count('/auth/refresh/')).toBe(2 + 3);
  });

  it('without coordination (the hazard this client exists for) the same traffic trips reuse detection', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const tabs = [0, 1, 2, 3].map(() => openTab(browser, null, { crossTab: false }));
    await tabs[0]!.client.login({ username: 'alice', password: 'pw' });
    for (const tab of tabs.slice(1)) await tab.client.restore();
    browser.advance(61_000);
    const results = await Promise.allSettled(tabs.flatMap((tab) => Array.from({ length: 10 }, () => tab.client.fetch('/me'))));
    expect(browser.reuseDetected).toBeGreaterThan(0);
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    expect(tabs.some((tab) => tab.signOutReasons().includes('reuse_detected'))).toBe(true);
  });

  it('broadcasts a sign-out: every tab ends, and none refreshes afterwards', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const locks = new InProcessLocks();
    const [a, b] = [openTab(browser, locks), openTab(browser, locks)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    await a!.client.logout();
    await settle();
    expect(b!.client.status).toBe('signed-out');
    expect(b!.signOutReasons()).toEqual(['logout']);
    await expect(b!.client.fetch('/me')).rejects.toMatchObject({ code: 'signed_out' });
    expect(browser.count('/auth/refresh/')).toBe(0);
  });
});
