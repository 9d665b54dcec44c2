/**
 * Benchmark (a script, not a test): median latency and throughput of get-by-id and
 * rotate through the Kysely store, beside the raw driver's prepared statement and
 * kysely's per-call query builder, on each reachable dialect, at 1 and 32
 * concurrent callers. Run: `npx tsx bench/store-bench.ts` (BENCH_ROUNDS=8).
 * Writes bench/RESULTS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMysql, openPostgres, openSqlite, type BenchTarget, type RotateArgs } from './bench-targets.js';
import { compare, type Measurement } from './measure.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SLICE_MS = 250;
const CONCURRENCY = [1, 32] as const;

interface Row {
  target: string;
  op: string;
  concurrency: number;
  raw: Measurement;
  store: Measurement;
  storePlain: Measurement;
  builder?: Measurement;
}

/** Active seeded sessions (see test/support/seed-sessions.ts): n % 20 not 1 or 2. */
const activeSeed = (k: number): number => 3 + 20 * (k % 4900);

function rotator(rotate: (args: RotateArgs) => Promise<boolean>, firstSeed: number) {
  const jtis = new Map<number, string>();
  let counter = 0;
  let failures = 0;
  return {
    op: async (worker: number) => {
      const n = activeSeed(firstSeed + worker);
      const presentedJti = jtis.get(n) ?? `jti-${n}`;
      const nextJti = `b-${n}-${(counter += 1)}`;
      const ok = await rotate({ id: `seed-${n}`, userId: `user-${n % 10000}`, presentedJti, nextJti, stamp: 'stamp', now: Date.now() });
      if (ok) jtis.set(n, nextJti);
      else failures += 1;
    },
    failures: () => failures,
  };
}

async function benchTarget(target: BenchTarget): Promise<Row[]> {
  const rows: Row[] = [];
  let k = 0;
  const randomId = () => `seed-${activeSeed((k += 7919))}`;
  for (const concurrency of CONCURRENCY) {
    const get = await compare(
      {
        raw: () => target.rawGet(randomId()),
        store: () => target.store.findSession(randomId()),
        storePlain: () => target.storePlain.findSession(randomId()),
        builder: () => target.builderGet(randomId()),
      },
      concurrency,
      ROUNDS,
      SLICE_MS,
    );
    const { raw, store, storePlain, builder } = get;
    rows.push({ target: target.name, op: 'get by id', concurrency, raw, store, storePlain, builder });

    // Each worker rotates its own sessions; raw and store use disjoint ones.
    const rawRotate = rotator((args) => target.rawRotate(args), concurrency * 10);
    const storeRotator = (store: BenchTarget['store'], firstSeed: number) =>
      rotator(async (args) => {
        const outcome = await store.rotateRefresh({
          sessionId: args.id,
          userId: args.userId,
          presentedJti: args.presentedJti,
          nextJti: args.nextJti,
          securityStamp: args.stamp,
          now: new Date(args.now),
        });
        return outcome.status === 'consumed';
      }, firstSeed);
    const storeRotate = storeRotator(target.store, 2000 + concurrency * 10);
    const plainRotate = storeRotator(target.storePlain, 3000 + concurrency * 10);
    const rotations = await compare({ raw: rawRotate.op, store: storeRotate.op, plain: plainRotate.op }, concurrency, ROUNDS, SLICE_MS);
    const { raw: rawR, store: storeR, plain: plainR } = rotations;
    const failures = rawRotate.failures() + storeRotate.failures() + plainRotate.failures();
    if (failures > 0) throw new Error(`${target.name}: ${failures} rotations failed`);
    rows.push({ target: target.name, op: 'rotate', concurrency, raw: rawR, store: storeR, storePlain: plainR });
  }
  return rows;
}

const fmt = (m: Measurement | undefined, what: 'median' | 'ops') =>
  m === undefined ? '-' : what === 'median' ? `${m.medianUs.toFixed(0)} µs` : `${Math.round(m.opsPerSec).toLocaleString('en-US')}`;

function table(rows: Row[]): string {
  const head =
    '| dialect | operation | callers | raw driver median | store median | store / raw | raw ops/s | store ops/s | plain-Kysely store median | plain / raw | builder-per-call median |\n' +
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.target} | ${r.op} | ${r.concurrency} | ${fmt(r.raw, 'median')} | ${fmt(r.store, 'median')} | ` +
      `${(r.store.medianUs / r.raw.medianUs).toFixed(2)}x | ${fmt(r.raw, 'ops')} | ${fmt(r.store, 'ops')} | ` +
      `${fmt(r.storePlain, 'median')} | ${(r.storePlain.medianUs / r.raw.medianUs).toFixed(2)}x | ${fmt(r.builder, 'median')} |`,
  );
  return [head, ...lines].join('\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-bench-'));
  const openers: Array<[string, () => Promise<BenchTarget>]> = [
    ['SQLite', () => openSqlite(join(dir, 'bench.db'))],
    ['PostgreSQL', () => openPostgres(32)],
    ['MariaDB', () => openMysql(32)],
  ];
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const [name, open] of openers) {
      let target: BenchTarget;
      try {
        target = await open();
      } catch (error) {
        skipped.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        console.warn(`!!! SKIPPED ${name}: unreachable`);
        continue;
      }
      try {
        console.log(`benchmarking ${target.name} ...`);
        rows.push(...(await benchTarget(target)));
      } finally {
        await target.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const report = [
    '# @sessauth/kysely store benchmark',
    '',
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; databases on the same machine (127.0.0.1);`,
    `load average at the end ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')} (a shared machine: read ratios, not absolutes).`,
    `Each cell: the variants take turns in ${SLICE_MS} ms slices for ${ROUNDS} rounds after a warm-up slice each`,
    '(so load drift on a shared machine hits them alike); 100,000 seeded sessions; pools of 32 connections.',
    'Raw driver = a prepared statement: better-sqlite3 `prepare().get()` (statement kept), pg `query({ name, text, values })`,',
    'mysql2 `execute`. Store = `findSession` / `rotateRefresh` (row-to-record mapping included) over a Kysely instance',
    'built with the optional helper (`withNamedStatements(pool)` on pg, `withStatementCache(database)` passed as `directReads` too on SQLite, none on',
    'MySQL); plain-Kysely store = the same store over a plain Kysely instance.',
    "Builder-per-call = `db.selectFrom(t).selectAll().where('id', '=', id).executeTakeFirst()`.",
    'Rotate on MariaDB is UPDATE + read-back in both columns (no UPDATE ... RETURNING).',
    '',
    table(rows),
    '',
    skipped.length === 0 ? '' : `Skipped: ${skipped.join('; ')}`,
    `Generated by \`npx tsx bench/store-bench.ts\` on ${new Date().toISOString()}.`,
    '',
  ].join('\n');
  writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
  console.log(`\n${table(rows)}`);
}

await main();
