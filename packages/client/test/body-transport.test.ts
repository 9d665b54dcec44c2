import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage, type TokenStorage } from '../src/index.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

/** A storage that records what it was given, as a phone's secure store would keep it. */
function recordingStorage(): TokenStorage & { history: (string | null)[] } {
  const inner = memoryStorage();
  const history: (string | null)[] = [];
  return {
    history,
    get: () => inner.get(),
    set: (token) => {
      history.push(token);
      return inner.set(token);
    },
  };
}

describe('body transport (non-browser clients) with a pluggable storage', () => {
  it('keeps the rotating refresh token in the storage and never sends a consumed one', async () => {
    const server = await FakeBrowser.start({ transport: 'body', accessSeconds: 60 });
    const storage = recordingStorage();
    const app = openTab(server, null, { transport: 'body', storage });
    await app.client.login({ username: 'alice', password: 'pw' });
    for (let i = 0; i < 3; i++) {
      server.advance(61_000);
      const statuses = await Promise.all(Array.from({ length: 5 }, () => app.client.fetch('/me').then((r) => r.status)));
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
    }
    expect(server.count('/auth/refresh/')).toBe(3);
    expect(new Set(storage.history).size).toBe(4); // the login's token and three replacements
    expect(server.count('/auth/csrf/')).toBe(0);
    expect(server.reuseDetected).toBe(0);
  });

  it('restores from the stored token in a new process, and forgets it on logout', async () => {
    const server = await FakeBrowser.start({ transport: 'body' });
    const storage = recordingStorage();
    await openTab(server, null, { transport: 'body', storage }).client.login({ username: 'alice', password: 'pw' });
    const restarted = openTab(server, null, { transport: 'body', storage });
    expect(await restarted.client.restore()).toBe(true);
    expect(restarted.events).toEqual(['signed-in:restore']);
    await restarted.client.logout();
    expect(await storage.get()).toBeNull();
    expect(await openTab(server, null, { transport: 'body', storage }).client.restore()).toBe(false);
  });

  it('two clients sharing one storage and one lock take turns: no reuse', async () => {
    const server = await FakeBrowser.start({ transport: 'body', accessSeconds: 60 });
    const storage = memoryStorage();
    const locks = new InProcessLocks();
    const shared = { transport: 'body' as const, storage, crossTab: true };
    const [a, b] = [openTab(server, locks, shared), openTab(server, locks, shared)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    expect(await b!.client.restore()).toBe(true);
    server.advance(61_000);
    const statuses = await Promise.all([a, b].flatMap((tab) => [1, 2, 3].map(() => tab!.client.fetch('/me').then((r) => r.status))));
    expect(statuses).toEqual(Array(6).fill(200));
    expect(server.count('/auth/refresh/')).toBe(1);
    expect(server.reuseDetected).toBe(0);
  });
});
