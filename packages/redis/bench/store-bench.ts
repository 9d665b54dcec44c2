/**
 * Median latency of findSession and rotateRefresh against a real Redis, at 1 and 32
 * concurrent callers, with the owner cache warm (one round trip per findSession)
 * and off (two: the owner pointer, then the hash). A script, not a test.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 pnpm --filter @sessauth/redis bench
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { NewSession } from '@sessauth/core/store';
import { RedisSessionStore, createRedisClient } from '../src/index.js';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const OPS_PER_RUN = Number(process.env.BENCH_OPS ?? 20_000);
const hex = (bytes = 16): string => randomBytes(bytes).toString('hex');

function session(): NewSession {
  const createdAt = new Date();
  return {
    id: hex(),
    userId: `bench-${hex(6)}`,
    refreshJti: hex(),
    securityStamp: hex(32),
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 14 * 86_400_000),
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    browser: 'Firefox 128 on Linux',
    location: { city: 'Berlin', country_code: 'DE' },
  };
}

/** Runs `op` `total` times across `concurrency` workers; returns each call's latency (ms). */
async function measure(concurrency: number, total: number, op: (worker: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const perWorker = Math.ceil(total / concurrency);
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; i < perWorker; i += 1) {
        const start = performance.now();
        await op(worker);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

function summary(latencies: number[]): { median: number; p99: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  const client = await createRedisClient(url);
  const keyPrefix = `sessauth-bench:${hex(4)}:`;
  const rows: string[] = [];
  try {
    const warm = new RedisSessionStore({ client, keyPrefix });
    const cold = new RedisSessionStore({ client, keyPrefix, ownerCacheSize: 0 });
    const sessions = Array.from({ length: 1000 }, session);
    for (const s of sessions) await warm.createSession({ session: s, maxActiveSessions: 20 });
    // Warm the JIT, the connection and the cache before anything is measured.
    for (const store of [warm, cold]) {
      await measure(8, 10_000, async () => void (await store.findSession(sessions[0]!.id)));
    }

    for (const concurrency of [1, 32]) {
      for (const [label, store] of [
        ['findSession (owner cached)', warm],
        ['findSession (owner cache off)', cold],
      ] as const) {
        const started = performance.now();
        const latencies = await measure(concurrency, OPS_PER_RUN, async () => {
          const found = await store.findSession(sessions[Math.floor(Math.random() * sessions.length)]!.id);
          if (found === null) throw new Error('bench: session vanished');
        });
        rows.push(row(label, concurrency, latencies, performance.now() - started));
      }
      // Each worker rotates its own session, chaining jtis.
      const own = Array.from({ length: concurrency }, session);
      for (const s of own) await warm.createSession({ session: s, maxActiveSessions: 20 });
      const jtis = own.map((s) => s.refreshJti);
      const started = performance.now();
      const latencies = await measure(concurrency, OPS_PER_RUN, async (worker) => {
        const s = own[worker]!;
        const nextJti = hex();
        const outcome = await warm.rotateRefresh({
          sessionId: s.id,
          userId: s.userId,
          presentedJti: jtis[worker]!,
          nextJti,
          securityStamp: s.securityStamp,
          now: new Date(),
        });
        if (outcome.status !== 'consumed') throw new Error(`bench: rotation ${outcome.status}`);
        jtis[worker] = nextJti;
      });
      rows.push(row('rotateRefresh', concurrency, latencies, performance.now() - started));
    }
  } finally {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) await client.del(key);
    } while (cursor !== '0');
    await client.quit();
  }
  const info = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${OPS_PER_RUN} ops per row`;
  console.log(`${info}\n\n| operation | concurrency | median ms | p99 ms | ops/s |\n|---|---|---|---|---|\n${rows.join('\n')}`);
}

function row(label: string, concurrency: number, latencies: number[], elapsedMs: number): string {
  const { median, p99 } = summary(latencies);
  const opsPerSec = Math.round((latencies.length / elapsedMs) * 1000);
  return `| ${label} | ${concurrency} | ${median.toFixed(3)} | ${p99.toFixed(3)} | ${opsPerSec} |`;
}

await main();
