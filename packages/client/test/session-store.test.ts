import { afterEach, describe, expect, it } from 'vitest';
import { sessionStoreOf } from '../src/session-store.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';

afterEach(closeTabs);

describe('the session store shared by the useSession bindings', () => {
  it('tells every subscriber of a client about each change, not only the first', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const { client } = openTab(browser, null);
    const store = sessionStoreOf(client);
    const seen: string[][] = [[], [], []];
    const offs = seen.map((log) => store.subscribe(() => log.push(store.getSnapshot().status)));

    await client.login({ username: 'alice', password: 'pw' });
    expect(seen).toEqual([['signed-in'], ['signed-in'], ['signed-in']]);
    expect(store.getSnapshot().sessionId).toBe(client.sessionId);

    // One component unmounts; the others still hear the sign-out.
    offs[0]!();
    await client.logout();
    expect(seen).toEqual([['signed-in'], ['signed-in', 'signed-out'], ['signed-in', 'signed-out']]);
    for (const off of offs.slice(1)) off();
  });

  it('keeps the snapshot identity until the state changes', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const { client } = openTab(browser, null);
    const store = sessionStoreOf(client);
    const off = store.subscribe(() => {});
    const before = store.getSnapshot();
    expect(store.getSnapshot()).toBe(before);
    await client.login({ username: 'alice', password: 'pw' });
    const after = store.getSnapshot();
    expect(after).not.toBe(before);
    expect(store.getSnapshot()).toBe(after);
    off();
  });
});
