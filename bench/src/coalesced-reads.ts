// The guard with coalesced session reads on and off, in process, side by side (issue 24):
//   node ../node_modules/tsx/dist/cli.mjs --conditions=@sessauth/source src/coalesced-reads.ts [stores] [seconds] [rounds]
// e.g. `... src/coalesced-reads.ts postgres,mariadb,redis,memory 1 4`; CALLERS=1,4 picks the
// concurrencies. For each store and each concurrency (by default 1, 4, 32, 256 callers), two engines over ONE store (JWT_COALESCE_SESSION_READS
// on and off) run `auth.authenticate` in a closed loop, in interleaved rounds (off, on, on,
// off, ...); the medians, their min-max and the per-call p50/p99 are printed as a Markdown
// table (bench/results/coalesced-reads.md records a run).
import { createPasswordAuthenticator, createSessauth, type Sessauth, type SessionStore } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { BenchUsers, type BenchUser } from './bench-auth.js';
import { ACCESS_TOKEN_SECONDS, AUDIENCE, BENCH_USER, ISSUER, SECRET, type StoreName } from './config.js';
import { bulkSeed } from './ops/bulk-seed.js';
import { cleanUp } from './stores/cleanup.js';
import { openStore } from './stores/open-store.js';

const NAMING = { sessionTable: 'bench16_coalesce_session', rateLimitTable: 'bench16_coalesce_rate_limit', redisPrefix: 'bench16:coalesce:' };
const CONCURRENCY = (process.env.CALLERS ?? '1,4,32,256').split(',').map(Number);
const TOKENS = 256;
const FILLER = 5000;

const stores = (process.argv[2] ?? 'memory,postgres,mariadb,redis').split(',') as StoreName[];
const seconds = Number(process.argv[3] ?? 1);
const rounds = Number(process.argv[4] ?? 4);

function engine(store: SessionStore, users: BenchUsers, coalesceSessionReads: boolean): Promise<Sessauth<BenchUser>> {
  return createSessauth<BenchUser>({
    options: {
      secretKey: SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      accessTokenExpireSeconds: ACCESS_TOKEN_SECONDS,
      maxActiveSessions: 1000,
      coalesceSessionReads,
    },
    store,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
    logger: { warn: (event) => console.error(`sessauth warn: ${event}`), error: (event) => console.error(`sessauth error: ${event}`) },
  });
}

interface Round {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** `callers` loops of `auth.authenticate` for `seconds`: completed guard calls per second and per-call latency. */
async function measure(auth: Sessauth<BenchUser>, tokens: readonly string[], callers: number): Promise<Round> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      const authorization = [`Bearer ${tokens[caller % tokens.length]}`];
      while (performance.now() < until) {
        const started = performance.now();
        await auth.authenticate({ authorization }).catch(() => {
          failures += 1;
        });
        latencies.push(performance.now() - started);
      }
    }),
  );
  if (failures > 0) throw new Error(`${failures} guard calls failed`);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { perSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => value.toFixed(value < 1 ? 3 : 2);

console.log(`| store | callers | off: guard calls/s (min-max) | on: guard calls/s (min-max) | on/off | p50 off / on (ms) | p99 off / on (ms) |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
try {
  for (const name of stores) {
    const opened = await openStore(name, undefined, NAMING);
    try {
      await bulkSeed(name, NAMING.sessionTable, opened.sessions, FILLER);
      const users = await BenchUsers.create([BENCH_USER]);
      const off = await engine(opened.sessions, users, false);
      const on = await engine(opened.sessions, users, true);
      const tokens: string[] = [];
      for (let index = 0; index < TOKENS; index += 1) tokens.push((await off.createSessionFor(BENCH_USER.id, { ip: null })).access_token);
      // Warm both paths (pools, prepared statements, the JIT).
      await measure(off, tokens, 32);
      await measure(on, tokens, 32);
      for (const callers of CONCURRENCY) {
        const results: { off: Round[]; on: Round[] } = { off: [], on: [] };
        for (let round = 0; round < rounds; round += 1) {
          const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
          for (const mode of order) results[mode].push(await measure(mode === 'on' ? on : off, tokens, callers));
        }
        const rate = (mode: 'off' | 'on') => results[mode].map((r) => r.perSecond);
        const span = (values: number[]) => `${fmt(Math.min(...values))}-${fmt(Math.max(...values))}`;
        const [offRate, onRate] = [median(rate('off')), median(rate('on'))];
        const p = (mode: 'off' | 'on', key: 'p50Ms' | 'p99Ms') => ms(median(results[mode].map((r) => r[key])));
        console.log(
          `| ${name} | ${callers} | ${fmt(offRate)} (${span(rate('off'))}) | ${fmt(onRate)} (${span(rate('on'))}) | ${(onRate / offRate).toFixed(2)}x | ${p('off', 'p50Ms')} / ${p('on', 'p50Ms')} | ${p('off', 'p99Ms')} / ${p('on', 'p99Ms')} |`,
        );
      }
    } finally {
      await opened.close();
    }
  }
} finally {
  await cleanUp();
}
