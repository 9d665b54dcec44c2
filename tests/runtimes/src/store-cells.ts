import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reachService } from '@sessauth/conformance';
import { Redis } from 'ioredis';
import type { RuntimeProcess } from './remote-cell.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Starts a runtime on a cell's store settings (the environment its entry reads). */
export type StartOn = (env: Record<string, string>) => Promise<RuntimeProcess>;

/** Adds `then` to what the runtime's close does. */
const closing = (process: RuntimeProcess, then: () => Promise<void> | void): RuntimeProcess => ({
  controlUrl: process.controlUrl,
  close: async () => {
    try {
      await process.close();
    } finally {
      await then();
    }
  },
});

export const memoryCell = (start: StartOn) => () => start({ SESSAUTH_CELL_STORE: 'memory' });

/** Redis under a random key prefix, removed after; unreachable: skipped loudly (or failed in CI). */
export const redisCell = (start: StartOn) => () =>
  reachService('Redis 127.0.0.1:6379', async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await probe.connect();
    const name = `sessauth-runtime-${randomBytes(4).toString('hex')}:`;
    const process = await start({ SESSAUTH_CELL_STORE: 'redis', SESSAUTH_CELL_LOCATION: REDIS_URL, SESSAUTH_CELL_NAME: name });
    return closing(process, async () => {
      const keys = await probe.keys(`${name}*`);
      if (keys.length > 0) await probe.del(...keys);
      probe.disconnect();
    });
  });

/** A SQLite file of its own, removed after. */
export const sqliteCell = (start: StartOn) => async () => {
  const file = join(tmpdir(), `sessauth-runtime-${randomBytes(4).toString('hex')}.db`);
  const process = await start({ SESSAUTH_CELL_STORE: 'sqlite', SESSAUTH_CELL_LOCATION: file, SESSAUTH_CELL_NAME: 'sessauth_session' });
  return closing(process, () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  });
};
