import { afterEach, describe, expect, it } from 'vitest';
import { SignedOutError } from '../src/index.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab, settle } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

describe('a refresh whose answer is lost', () => {
  it('is never retried with the old token: every tab signs out with reason ambiguous', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const locks = new InProcessLocks();
    const [a, b] = [openTab(browser, locks), openTab(browser, locks)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    const consumed = browser.jar.get('refresh_token');
    // The server rotates the token, then the answer never arrives (the jar keeps the old cookie).
    browser.refreshFate = () => 'lose-response';
    browser.advance(50_000); // due for refresh, the access token still valid
    const results = await Promise.allSettled([a!.client.fetch('/me'), a!.client.fetch('/me'), b!.client.fetch('/me')]);
    await settle();

    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof SignedOutError)).toBe(true);
    expect(browser.count('/auth/refresh/')).toBe(1);
    expect(browser.reuseDetected).toBe(0);
    expect(a!.signOutReasons()).toEqual(['ambiguous']);
    expect(b!.signOutReasons()).toEqual(['ambiguous']);
    // Later calls do not touch the uncertain cookie either.
    await expect(b!.client.refresh()).rejects.toBeInstanceOf(SignedOutError);
    expect(await b!.client.restore()).toBe(false);
    expect(browser.count('/auth/refresh/')).toBe(1);
    // With the access token it still held, the client ended the session, and the server cleared the cookie.
    expect(browser.count('/auth/logout/')).toBe(1);
    expect(browser.jar.get('refresh_token')).toBeUndefined();
    expect(consumed).not.toBeNull();
    await expect(browser.store.listActiveSessions('u-alice', new Date(browser.now()))).resolves.toEqual([]);
  });

  it('holds even when the channel is slow: the next lock holder reads the sign-out from the lock manager', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const locks = new InProcessLocks();
    // Messages take 200 ms: the other tab is granted the lock long before it hears anything.
    const slow = {
      channel: (name: string) => {
        const inner = new BroadcastChannel(`${name}#${browser.deviceId}`);
        return {
          postMessage: (message: unknown) => void setTimeout(() => inner.postMessage(message), 200),
          get onmessage() {
            return inner.onmessage as ((event: MessageEvent) => void) | null;
          },
          set onmessage(handler: ((event: MessageEvent) => void) | null) {
            inner.onmessage = handler as typeof inner.onmessage;
          },
          close: () => setTimeout(() => inner.close(), 300),
        };
      },
    };
    const [a, b] = [openTab(browser, locks, slow), openTab(browser, locks, slow)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    expect(await b!.client.restore()).toBe(true); // no answer in time: it refreshed, under the lock
    await settle(400);
    const before = browser.count('/auth/refresh/');
    browser.refreshFate = () => 'lose-response';
    browser.advance(50_000);
    const results = await Promise.allSettled([a!.client.fetch('/me'), b!.client.fetch('/me')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(browser.count('/auth/refresh/') - before).toBe(1);
    expect(a!.signOutReasons()).toEqual(['ambiguous']);
    expect(b!.signOutReasons()).toEqual(['ambiguous']);
    expect(browser.reuseDetected).toBe(0);
  });

  it('treats a 5xx answer as ambiguous too', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const tab = openTab(browser, new InProcessLocks(), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname.endsWith('/refresh/')) {
          await browser.fetch(request); // the server acted
          return new Response('<html>Bad gateway</html>', { status: 502 });
        }
        return browser.fetch(request);
      },
    });
    await tab.client.login({ username: 'alice', password: 'pw' });
    await expect(tab.client.refresh()).rejects.toMatchObject({ reason: 'ambiguous' });
    expect(tab.signOutReasons()).toEqual(['ambiguous']);
    expect(browser.count('/auth/refresh/')).toBe(1);
  });

  it('a definite refusal before any state change (429) keeps the session and may be tried again', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    let refuse = true;
    const tab = openTab(browser, new InProcessLocks(), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (refuse && new URL(request.url).pathname.endsWith('/refresh/')) {
          return new Response('{"error_code":"rate_limited"}', { status: 429, headers: { 'retry-after': '1' } });
        }
        return browser.fetch(request);
      },
    });
    await tab.client.login({ username: 'alice', password: 'pw' });
    await expect(tab.client.refresh()).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    expect(tab.client.status).toBe('signed-in');
    refuse = false;
    await tab.client.refresh();
    expect(tab.events).toEqual(['signed-in:login', 'refreshed:this-tab']);
    expect(browser.reuseDetected).toBe(0);
  });
});
