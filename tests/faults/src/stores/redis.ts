import { reachService } from '@sessauth/conformance';
import { startFaultProxy, type FaultProxy } from '@sessauth/conformance/faults';
import { Redis } from 'ioredis';
import { sleep } from '../load.js';
import { networkFaults } from '../proxy-faults.js';
import { HOLD_MS, REDIS_DEADLINE_MS } from '../timing.js';
import { REDIS_SERVER, startOwnRedis } from './redis-server.js';
import type { StoreUnderFault } from './store-under-fault.js';

/**
 * Redis: a server of the test's own (see redis-server.ts), reached by the example
 * servers through a fault proxy; an admin connection goes straight to it.
 * CLIENT KILL picks the servers' connections by the proxy's upstream ports.
 */
export async function redisUnderFault(): Promise<StoreUnderFault | null> {
  const server = await reachService(`Redis (${REDIS_SERVER}, a server of the test's own)`, startOwnRedis);
  if (server === null) return null;
  const proxy = await startFaultProxy({ target: { port: server.port } });
  const admin = new Redis({ port: server.port, host: '127.0.0.1' });
  admin.on('error', () => undefined);
  let sleeping: Promise<unknown> = Promise.resolve();
  return {
    label: 'Redis',
    storeUrl: `redis://127.0.0.1:${proxy.port}`,
    deadlineMs: REDIS_DEADLINE_MS,
    faults: [
      ...networkFaults(proxy, { script: 'evalsha' }),
      {
        name: 'CLIENT KILL of every connection of the servers, three times',
        holdMs: 0,
        async inject() {
          for (let i = 0; i < 3; i += 1) {
            await killServerClients(admin, proxy);
            await sleep(HOLD_MS / 3);
          }
        },
        heal: async () => undefined,
      },
      {
        name: 'DEBUG SLEEP 3 (the server stops answering for 3 s)',
        holdMs: 3000,
        inject: async () => {
          sleeping = admin.call('debug', 'sleep', '3').catch(() => undefined);
        },
        heal: async () => {
          await sleeping;
        },
      },
      {
        name: 'CLIENT PAUSE 3000 ALL',
        holdMs: 3000,
        inject: async () => {
          await admin.call('client', 'pause', '3000', 'ALL');
        },
        heal: async () => {
          await admin.call('client', 'unpause');
        },
      },
      {
        name: 'crash (SIGKILL) and restart of the Redis server',
        holdMs: HOLD_MS,
        inject: () => server.crash(),
        heal: async () => {
          await server.start();
          // The admin connection reconnects on its own; wait for it.
          while (admin.status !== 'ready') await sleep(20);
        },
      },
    ],
    async close() {
      admin.disconnect();
      await proxy.close();
      await server.stop();
    },
  };
}

async function killServerClients(admin: Redis, proxy: FaultProxy): Promise<void> {
  for (const { upstreamPort } of proxy.connections()) {
    if (upstreamPort === undefined) continue;
    // The connection may be gone already: "ERR No such client".
    await admin.call('client', 'kill', 'addr', `127.0.0.1:${upstreamPort}`).catch(() => undefined);
  }
}
