import { createServer, type Server, type Socket } from 'node:net';
import { FaultLink } from './fault-link.js';
import { validateFaultMode, type FaultMode } from './fault-mode.js';

export interface FaultProxyOptions {
  /** Where the proxy forwards to, e.g. PostgreSQL on 127.0.0.1:5432. */
  readonly target: { readonly host?: string; readonly port: number };
  /** Listen address. @default '127.0.0.1' */
  readonly host?: string;
  /** Listen port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** The mode at start. @default { kind: 'pass' } */
  readonly mode?: FaultMode;
}

/** One open connection, by the ports that identify it on each side. */
export interface FaultConnection {
  /** The client's port towards the proxy. */
  readonly clientPort: number | undefined;
  /** The proxy's local port towards the target: the client port the target sees. */
  readonly upstreamPort: number | undefined;
}

export interface FaultProxyStats {
  /** Connections accepted since the start. */
  readonly accepted: number;
  /** Connections open now. */
  readonly open: number;
  /** Connections reset by `resetAll` or ended by a `cut`. */
  readonly reset: number;
}

/**
 * A TCP proxy for fault injection (a test tool; no external binary): put it
 * between a server under test and its database, then switch modes while load runs.
 */
export interface FaultProxy {
  readonly host: string;
  readonly port: number;
  readonly mode: FaultMode;
  /** Applies to open connections at once and to every later one. */
  setMode(mode: FaultMode): Promise<void>;
  /** Resets every open connection (RST on both sides); returns how many. */
  resetAll(): number;
  connections(): FaultConnection[];
  stats(): FaultProxyStats;
  /** Stops listening and resets what is still open. */
  close(): Promise<void>;
}

/** Starts a proxy listening on `host:port` (a free port by default) in front of `target`. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = { host: options.target.host ?? '127.0.0.1', port: options.target.port };
  const host = options.host ?? '127.0.0.1';
  const links = new Set<FaultLink>();
  let mode: FaultMode = validateFaultMode(options.mode ?? { kind: 'pass' });
  let accepted = 0;
  let reset = 0;
  let closed = false;

  const onConnection = (client: Socket): void => {
    accepted += 1;
    const link: FaultLink = new FaultLink(
      client,
      target,
      mode,
      () => links.delete(link),
      () => (reset += 1),
    );
    links.add(link);
  };
  let listener: Server | null = await listen(onConnection, host, options.port ?? 0);
  const port = (listener.address() as { port: number }).port;

  return {
    host,
    port,
    get mode() {
      return mode;
    },
    async setMode(next: FaultMode) {
      if (closed) throw new Error('fault proxy: closed');
      mode = validateFaultMode(next);
      // Refusing means nothing listens: a connect gets ECONNREFUSED from the kernel.
      if (mode.kind === 'refuse' && listener !== null) {
        listener.close();
        listener = null;
      } else if (mode.kind !== 'refuse' && listener === null) {
        listener = await listen(onConnection, host, port);
      }
      for (const link of links) link.setMode(mode);
    },
    resetAll() {
      const count = links.size;
      for (const link of links) link.reset();
      reset += count;
      return count;
    },
    connections() {
      return [...links].map((link) => ({ clientPort: link.client.remotePort, upstreamPort: link.upstreamPort }));
    },
    stats() {
      return { accepted, open: links.size, reset };
    },
    async close() {
      closed = true;
      for (const link of links) link.reset();
      const last = listener;
      listener = null;
      if (last !== null) await new Promise<void>((resolve) => last.close(() => resolve()));
    },
  };
}

function listen(onConnection: (socket: Socket) => void, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: false }, onConnection);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
