import type { Sessauth } from '@sessauth/core';
import { BenchUsers, createBenchAuth, type BenchUser } from '../bench-auth.js';
import { BENCH_USER, type StoreName } from '../config.js';
import { openStore } from '../stores/open-store.js';
import { countingStore } from './counting-store.js';

export interface EngineFixture {
  readonly auth: Sessauth<BenchUser>;
  readonly users: BenchUsers;
  /** Store calls made since the last `resetCalls`. */
  readonly calls: Map<string, number>;
  resetCalls(): void;
  close(): Promise<void>;
}

/** A user for the operations, apart from the guard's: its sessions never mix with another measurement's. */
export const opsUser = (tag: string) => ({ id: `ops-${tag}-${process.pid}`, username: `ops-${tag}-${process.pid}`, password: 'ops-password-1' });

/** The engine over one store, in this process, with every store call counted. */
export async function openEngine(storeName: StoreName, extraUsers: readonly ReturnType<typeof opsUser>[]): Promise<EngineFixture> {
  const opened = await openStore(storeName);
  const counted = countingStore(opened.sessions);
  const users = await BenchUsers.create([BENCH_USER, ...extraUsers]);
  const auth = await createBenchAuth(counted.store, opened.rateLimits, users);
  return { auth, users, calls: counted.calls, resetCalls: counted.reset, close: () => opened.close() };
}
