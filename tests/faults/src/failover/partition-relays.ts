import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A network partition between Redis Cluster nodes, on one machine. Each node binds a loopback
 * address of its own (127.x.y.z, and `bind-source-addr`, so its outgoing connections come from
 * it too) and announces a relay of this switchboard as its client and bus address: every
 * node-to-node connection (cluster bus gossip, replication) goes through a relay, which knows both
 * ends by address. `isolate(ip)` then blackholes every connection that crosses the cut (one end
 * isolated, the other not), open ones at once: the node neither hears nor is heard by the others,
 * while the application, which reaches each node directly (ioredis `natMap`), still reaches it.
 * That is the split brain. The fault suite's own proxy sees one target and no source, so it
 * cannot tell the node's outgoing gossip from the others'.
 *
 * The relays run in a process of their own (`partition-switchboard.ts`): in the test's process,
 * every byte of gossip and replication waited behind the load and the checker on a loaded machine,
 * and elections that should take seconds timed out.
 */
export interface PartitionRelays {
  /** A relay listening on `host` (the node's own address, a free port), forwarding to `host:port`. */
  relay(host: string, port: number): Promise<number>;
  /** Cuts `ip` off from every other address (open connections are paused: nothing read, nothing lost). */
  isolate(ip: string): void;
  /** Lets everything pass again; paused connections resume where they stopped. */
  heal(): void;
  close(): Promise<void>;
}

interface Link {
  readonly from: string;
  readonly to: string;
  readonly client: Socket;
  readonly server: Socket;
}

export function createPartitionRelays(): PartitionRelays {
  const isolated = new Set<string>();
  const links = new Set<Link>();
  const servers: Server[] = [];
  const crosses = (link: Link): boolean => isolated.has(link.from) !== isolated.has(link.to);
  const apply = (link: Link): void => {
    // Paused sockets read nothing: the kernel buffers fill and the peers see silence, like a
    // dropped route (no RST, no FIN), until the heal.
    if (crosses(link)) {
      link.client.pause();
      link.server.pause();
    } else {
      link.client.resume();
      link.server.resume();
    }
  };
  return {
    async relay(host, port) {
      const server = createServer({ allowHalfOpen: false }, (client) => {
        const upstream = connect({ host, port });
        const link: Link = { from: normalise(client.remoteAddress), to: host, client, server: upstream };
        links.add(link);
        client.on('data', (chunk) => upstream.write(chunk));
        upstream.on('data', (chunk) => client.write(chunk));
        const close = () => {
          links.delete(link);
          client.destroy();
          upstream.destroy();
        };
        client.on('error', close).on('close', close);
        upstream.on('error', close).on('close', close);
        apply(link);
      });
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
      return (server.address() as { port: number }).port;
    },
    isolate(ip) {
      isolated.add(ip);
      for (const link of links) apply(link);
    },
    heal() {
      isolated.clear();
      for (const link of links) apply(link);
    },
    async close() {
      for (const link of links) {
        link.client.destroy();
        link.server.destroy();
      }
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

function normalise(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:/, '');
}
