import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay that counts round trips: a client-to-server burst that follows the server's
 * answer (or opens the link) is one trip. Statements pipelined in one burst (a Redis pipeline,
 * several statements in one simple query) count once; a statement that waits for the previous
 * one's answer counts again. What the database sees on the wire, whatever the driver does.
 */
export interface RoundTripCounter {
  readonly port: number;
  /** Trips since the last `reset`, over every connection. */
  readonly trips: number;
  reset(): void;
  close(): Promise<void>;
}

export async function startRoundTripCounter(target: { host?: string; port: number }): Promise<RoundTripCounter> {
  let trips = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    let clientSpoke = false;
    const upstream = connect(target.port, target.host ?? '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (chunk) => {
      if (!clientSpoke) trips += 1;
      clientSpoke = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      clientSpoke = false;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    get trips() {
      return trips;
    },
    reset() {
      trips = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
