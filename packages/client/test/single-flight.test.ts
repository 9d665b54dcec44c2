import { afterEach, describe, expect, it } from 'vitest';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

async function signedInTab() {
  const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
  const locks = new InProcessLocks();
  const tab = openTab(browser, locks);
  await tab.client.login({ username: 'alice', password: 'pw' });
  return { browser, tab, locks };
}

/** Grants of the refresh lock itself (not of the state markers). */
const lockGrants = (locks: InProcessLocks): number =>
  [...locks.grants].filter(([name]) => !name.includes('|state|')).reduce((sum, [, n]) => sum + n, 0);

describe('single flight inside one tab', () => {
  it('sends the bearer token and refreshes nothing while the token is fresh', async () => {
    const { browser, tab } = await signedInTab();
    const responses = await Promise.all(Array.from({ length: 5 }, () => tab.client.fetch('/me')));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await responses[0]!.json()).toMatchObject({ user: 'alice' });
    expect(browser.count('/auth/refresh/')).toBe(0);
  });

  it('shares one refresh among 20 concurrent requests once the token is due', async () => {
    const { browser, tab, locks } = await signedInTab();
    browser.advance(59_000); // within the refresh-ahead margin (15 s of a 60 s token)
    const responses = await Promise.all(Array.from({ length: 20 }, () => tab.client.fetch('/me')));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(browser.count('/auth/refresh/')).toBe(1);
    // The callers joined one refresh: the lock was taken once for it (and once by the login), not 20 times.
    expect(lockGrants(locks)).toBe(2);
    expect(browser.reuseDetected).toBe(0);
    expect(tab.events).toEqual(['signed-in:login', 'refreshed:this-tab']);
  });

  it('refreshes once on 401 expired_token and replays each request once', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    // This tab's clock stands still: it believes its token is fresh when the server says it expired.
    const frozen = browser.now();
    const tab = openTab(browser, new InProcessLocks(), { now: () => frozen });
    await tab.client.login({ username: 'alice', password: 'pw' });
    browser.advance(61_000);
    const responses = await Promise.all(Array.from({ length: 10 }, () => tab.client.fetch('/me')));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(browser.count('/auth/refresh/')).toBe(1);
    expect(browser.count('/me')).toBe(20); // each request: the 401, then exactly one replay
    expect(browser.reuseDetected).toBe(0);
  });

  it('replays the request body, and replays only after expired_token', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie', accessSeconds: 60 });
    const bodies: string[] = [];
    const answers = [
      { status: 401, body: '{"error_code":"expired_token"}' },
      { status: 200, body: '{}' },
      { status: 401, body: '{"error_code":"invalid_token"}' },
    ];
    const tab = openTab(browser, new InProcessLocks(), {
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname !== '/echo') return browser.fetch(request);
        bodies.push(`${request.headers.get('authorization')?.slice(0, 7)}:${await request.text()}`);
        const answer = answers.shift()!;
        return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
      },
    });
    await tab.client.login({ username: 'alice', password: 'pw' });
    expect((await tab.client.fetch('/echo', { method: 'POST', body: 'payload' })).status).toBe(200);
    expect(bodies).toEqual(['Bearer :payload', 'Bearer :payload']);
    expect(browser.count('/auth/refresh/')).toBe(1);
    // Any other 401 is handed back as is.
    expect((await tab.client.fetch('/echo', { method: 'POST', body: 'again' })).status).toBe(401);
    expect(bodies).toHaveLength(3);
    expect(browser.count('/auth/refresh/')).toBe(1);
  });

  it('never sends the access token to another origin', async () => {
    const { tab } = await signedInTab();
    await expect(tab.client.fetch('https://elsewhere.example/steal')).rejects.toThrow(/refusing to send the access token/);
  });
});
