import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppUnderTest } from './conformance-types.js';

/**
 * Listens with a Node request listener (Express, Koa's `callback()`, ...) on
 * 127.0.0.1 at a free port. `close` also drops keep-alive sockets, which fetch
 * leaves open and which would otherwise hold `server.close()` until they time out.
 */
export async function serveOnLoopback(listener: RequestListener): Promise<AppUnderTest> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
