import type { DemoCredentials } from './example-server.js';
import type { History } from './history.js';
import { VirtualClient, type ClientTarget } from './virtual-client.js';

export interface LoadOptions {
  /** Requests per second offered. */
  readonly rate: number;
}

export interface RunningLoad {
  /** Requests sent since `since` (epoch ms). */
  sentSince(since: number): number;
  /** Ticks at which every client was still waiting for an answer (nothing could be sent). */
  readonly saturated: () => number;
  /** Stops sending and waits for every answer in flight. */
  stop(): Promise<void>;
}

/**
 * An open-loop load: a request every 1/rate seconds, from a client that is not
 * waiting for an answer (so each client's requests stay in order, as a real
 * client's do). A slow or silent store then shows as slow answers and a growing
 * number of busy clients, while the offered rate stays the same. The clients
 * (and the sessions they hold) outlive one run of the load: see `createClients`.
 */
export function startLoad(target: ClientTarget, clients: readonly VirtualClient[], history: History, options: LoadOptions): RunningLoad {
  for (const client of clients) client.history = history;
  const busy = new Set<VirtualClient>();
  const inFlight = new Set<Promise<void>>();
  const sent: number[] = [];
  let saturated = 0;
  const started = Date.now();
  let offered = 0;
  // Catches up when a tick comes late (a busy machine), so the offered rate holds.
  const ticker = setInterval(() => {
    const due = Math.floor(((Date.now() - started) * options.rate) / 1000) - offered;
    for (let i = 0; i < due; i += 1) {
      offered += 1;
      const idle = clients.filter((client) => !busy.has(client));
      const client = idle[Math.floor(Math.random() * idle.length)];
      if (client === undefined) {
        saturated += 1;
        continue;
      }
      busy.add(client);
      sent.push(Date.now());
      const work: Promise<void> = client.step(target).finally(() => {
        busy.delete(client);
        inFlight.delete(work);
      });
      inFlight.add(work);
    }
  }, 1000 / options.rate);
  return {
    sentSince: (since) => sent.filter((at) => at >= since).length,
    saturated: () => saturated,
    async stop() {
      clearInterval(ticker);
      await Promise.all([...inFlight]);
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Client `i` is user `users[i]` at address 198.51.100.<i+1>. */
export function createClients(users: readonly DemoCredentials[], count: number): VirtualClient[] {
  if (users.length < count) throw new Error(`the load needs ${count} users, got ${users.length}`);
  return Array.from({ length: count }, (_, i) => new VirtualClient(i, users[i]!, `198.51.100.${i + 1}`));
}

/**
 * Signs every client in before the first scenario, a few at a time (each login is
 * an argon2 hash); a client whose login failed tries twice more. Returns the
 * clients still without a session.
 */
export async function signIn(target: ClientTarget, clients: readonly VirtualClient[], history: History): Promise<VirtualClient[]> {
  for (const client of clients) client.history = history;
  let pending = [...clients];
  for (let attempt = 0; attempt < 3 && pending.length > 0; attempt += 1) {
    for (let i = 0; i < pending.length; i += 4) {
      await Promise.all(pending.slice(i, i + 4).map((client) => client.step(target)));
    }
    pending = pending.filter((client) => client.liveTokens === null);
  }
  return pending;
}
