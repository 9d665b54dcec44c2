import { createSessauthClient, type SessauthClient, type SessauthClientOptions, type SignOutReason } from '../../src/index.js';
import type { FakeBrowser } from './fake-browser.js';
import type { InProcessLocks } from './web-locks.js';

export interface Tab {
  readonly client: SessauthClient;
  /** Every event this tab's client emitted, as `name` or `name:detail`. */
  readonly events: string[];
  signOutReasons(): SignOutReason[];
}

const open: SessauthClient[] = [];

/**
 * One browser tab: its own client (memory, timers) over the browser's shared
 * network and cookie jar, the shared lock manager, and a real (Node)
 * BroadcastChannel named after the API and this browser (tabs of another browser
 * do not hear it), as in a browser.
 */
export function openTab(browser: FakeBrowser, locks: InProcessLocks | null, options: SessauthClientOptions = {}): Tab {
  const client = createSessauthClient({
    baseUrl: browser.origin,
    fetch: browser.fetch,
    now: () => browser.now(),
    locks,
    channel: (name) => new BroadcastChannel(`${name}#${browser.deviceId}`),
    peerWaitMs: 50,
    // These tabs stand for a browser's: coordinate as a browser's client does by default.
    crossTab: (options.transport ?? 'cookie') === 'cookie',
    ...options,
  });
  open.push(client);
  const events: string[] = [];
  const reasons: SignOutReason[] = [];
  client.on('signed-in', (e) => events.push(`signed-in:${e.via}`));
  client.on('refreshed', (e) => events.push(`refreshed:${e.source}`));
  client.on('signed-out', (e) => {
    events.push(`signed-out:${e.reason}:${e.source}`);
    reasons.push(e.reason);
  });
  return { client, events, signOutReasons: () => [...reasons] };
}

/** Closes every tab's channel, so the test process can exit. */
export function closeTabs(): void {
  for (const client of open.splice(0)) client.close();
}

/** Lets channel messages and timers in flight settle. */
export function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
