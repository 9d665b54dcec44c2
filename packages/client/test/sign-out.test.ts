import { afterEach, describe, expect, it } from 'vitest';
import { SessauthClientError } from '../src/index.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab, settle } from './support/tabs.js';
import { InProcessLocks } from './support/web-locks.js';

afterEach(closeTabs);

/** Two devices of one user: two browsers (two jars) on one server. */
async function twoDevices() {
  const laptop = await FakeBrowser.start({ transport: 'cookie' });
  const phone = laptop.sibling();
  const a = openTab(laptop, new InProcessLocks());
  const b = openTab(phone, new InProcessLocks());
  await a.client.login({ username: 'alice', password: 'pw' });
  await b.client.login({ username: 'alice', password: 'pw' });
  return { laptop, phone, a, b };
}

describe('sessions and signing out', () => {
  it('lists both devices, this one marked, and signs the other out: it loses access on its next request', async () => {
    const { a, b } = await twoDevices();
    const rows = await a.client.listSessions();
    expect(rows).toHaveLength(2);
    const mine = rows.filter((row) => row.is_current);
    expect(mine.map((row) => row.id)).toEqual([a.client.sessionId]);
    const other = rows.find((row) => !row.is_current)!;
    expect(other.id).toBe(b.client.sessionId);

    await a.client.signOutDevice(other.id);
    expect(a.client.status).toBe('signed-in');
    const response = await b.client.fetch('/me');
    expect(response.status).toBe(401);
    expect(b.signOutReasons()).toEqual(['revoked']);
    expect(b.client.status).toBe('signed-out');
  });

  it('names a device: the row comes back named, the list shows it, and bad input or a wrong id is refused', async () => {
    const { a, b } = await twoDevices();
    const row = await a.client.renameSession(b.client.sessionId!, '  Work phone ');
    expect(row).toMatchObject({ id: b.client.sessionId, name: 'Work phone', is_current: false });
    const rows = await b.client.listSessions();
    expect(rows.find((entry) => entry.is_current)?.name).toBe('Work phone');
    expect(rows.find((entry) => !entry.is_current)?.name).toBeNull();
    expect(Date.parse(rows[0]!.expires_at!)).toBeGreaterThan(Date.now());
    await expect(a.client.renameSession(b.client.sessionId!, ' ')).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
    await expect(a.client.renameSession('no-such-session', 'x')).rejects.toMatchObject({ code: 'session_not_found', status: 404 });
    expect(a.client.status).toBe('signed-in');
  });

  it('"sign out everywhere" ends both devices', async () => {
    const { a, b } = await twoDevices();
    await a.client.logoutEverywhere();
    expect(a.signOutReasons()).toEqual(['logout']);
    expect((await b.client.fetch('/me')).status).toBe(401);
    expect(b.signOutReasons()).toEqual(['revoked']);
  });

  it('signing out this device by id is a logout, and a wrong id is session_not_found', async () => {
    const { a } = await twoDevices();
    await expect(a.client.signOutDevice('no-such-session')).rejects.toMatchObject({ code: 'session_not_found', status: 404 });
    await a.client.signOutDevice(a.client.sessionId!);
    expect(a.signOutReasons()).toEqual(['logout']);
  });

  it('reports reuse detected when a stolen copy of the cookie was refreshed first', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const tab = openTab(browser, new InProcessLocks());
    await tab.client.login({ username: 'alice', password: 'pw' });
    expect(await browser.refreshFromElsewhere()).toBe(200);
    await expect(tab.client.refresh()).rejects.toMatchObject({ reason: 'reuse_detected' });
    expect(tab.signOutReasons()).toEqual(['reuse_detected']);
    expect(browser.reuseDetected).toBe(1);
  });

  it('a new page with no session restores nothing and says nothing; wrong credentials throw', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const tab = openTab(browser, new InProcessLocks());
    expect(await tab.client.restore()).toBe(false);
    expect(tab.events).toEqual([]);
    await expect(tab.client.login({ username: 'alice', password: 'nope' })).rejects.toEqual(
      expect.objectContaining({ code: 'invalid_credentials', status: 401 }),
    );
    await expect(tab.client.login({ username: 'alice', password: 'nope' })).rejects.toBeInstanceOf(SessauthClientError);
  });

  it('renews a stale CSRF token once (the cookie was cleared and another tab started a new secret)', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const locks = new InProcessLocks();
    const [a, b] = [openTab(browser, locks), openTab(browser, locks)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    // The user clears the CSRF cookie; b's login then gets a fresh secret that a's cached token does not mask.
    browser.jar.delete('csrftoken');
    await b!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    await a!.client.refresh();
    expect(browser.count('/auth/csrf/')).toBe(3); // a's first, b's first, a's renewal after the 403
    expect(browser.reuseDetected).toBe(0);
    expect(a!.client.status).toBe('signed-in');
  });

  it('keeps one CSRF token across logins: the secret does not rotate, so no renewal round trip', async () => {
    const browser = await FakeBrowser.start({ transport: 'cookie' });
    const locks = new InProcessLocks();
    const [a, b] = [openTab(browser, locks), openTab(browser, locks)];
    await a!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    await b!.client.login({ username: 'alice', password: 'pw' });
    await settle();
    await a!.client.refresh();
    expect(browser.count('/auth/csrf/')).toBe(2);
    expect(a!.client.status).toBe('signed-in');
  });
});
