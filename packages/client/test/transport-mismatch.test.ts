import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SessauthClientError } from '../src/index.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';

afterEach(closeTabs);

async function loginFailure(serverTransport: 'body' | 'cookie' | 'both', clientTransport: 'body' | 'cookie'): Promise<SessauthClientError> {
  const server = await FakeBrowser.start({ transport: serverTransport });
  const tab = openTab(server, null, { transport: clientTransport });
  const error = await tab.client.login({ username: 'alice', password: 'pw' }).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SessauthClientError)) throw new Error(`expected a SessauthClientError, got ${String(error)}`);
  return error;
}

describe('a server and a client that disagree on the transport', () => {
  it.each([
    ['body', 'cookie'],
    ['both', 'cookie'],
    ['cookie', 'body'],
  ] as const)('server %s, client %s: login stops with an error naming both settings', async (server, client) => {
    const error = await loginFailure(server, client);
    expect(error.code).toBe('transport_mismatch');
    expect(error.message).toContain('JWT_REFRESH_TOKEN_TRANSPORT');
    expect(error.message).toContain('transport:');
  });

  it.each(['body', 'both'] as const)(
    'server %s, client cookie: the session the server created at login is logged out, not left active',
    async (serverTransport) => {
      const server = await FakeBrowser.start({ transport: serverTransport });
      const tab = openTab(server, null, { transport: 'cookie' });
      await expect(tab.client.login({ username: 'alice', password: 'pw' })).rejects.toMatchObject({ code: 'transport_mismatch' });
      expect(server.requests).toContain('/auth/logout/');
      expect(await server.store.listActiveSessions('u-alice', new Date())).toEqual([]);
      expect(tab.client.status).not.toBe('signed-in');
    },
  );

  it('agreeing transports log in', async () => {
    const server = await FakeBrowser.start({ transport: 'cookie' });
    const tab = openTab(server, null, { transport: 'cookie' });
    await tab.client.login({ username: 'alice', password: 'pw' });
    expect(tab.client.status).toBe('signed-in');
  });
});

describe('outside a browser', () => {
  it('a Node process with a cookie-transport client and auto refresh exits on its own (no channel, no timer holds it)', () => {
    const script = [
      `import { createSessauthClient } from ${JSON.stringify(fileURLToPath(new URL('../src/index.ts', import.meta.url)))};`,
      "createSessauthClient({ baseUrl: 'http://127.0.0.1:9', autoRefresh: true });",
      "console.log('created');",
    ].join('\n');
    const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [tsx, '--input-type=module', '-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(run.stdout).toContain('created');
    expect(run.signal, 'the process had to be killed: something kept it alive').toBeNull();
    expect(run.status).toBe(0);
  });
});
