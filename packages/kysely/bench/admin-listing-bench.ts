/**
 * How the admin listing's cost grows with the table: 100 vs 100,000 sessions, in
 * SQLite (a file) and PostgreSQL (when reachable), timing the whole page through
 * `handle()` (guard, keyset query, HTML or JSON) for the first page and a deep one.
 * A script, not a test: results go to stdout and, by hand, to RESULTS.md.
 *
 *   npx tsx --conditions=@sessauth/source packages/kysely/bench/admin-listing-bench.ts
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test (the default; `none` skips it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { createPasswordAuthenticator, createSessauth } from '@sessauth/core';
import { encodeAdminCursor } from '@sessauth/core/store';
import type { SessauthRequest } from '@sessauth/core/adapter';
import { KyselySessionStore, migrateToLatest, openKyselyFromUrl, type SessauthSessionTable } from '../src/index.js';

const TABLE = 'sessauth_bench_session';
const RATE_TABLE = 'sessauth_bench_rate_limit';
const SIZES = [100, 100_000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const DAY = 86_400_000;
const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

type BenchDb = Record<typeof TABLE, SessauthSessionTable>;
interface BenchUser {
  id: string;
}
const admin: BenchUser = { id: 'bench-admin' };

/** `count` sessions, a second apart, 1 in 20 revoked and 1 in 20 naturally ended, across count/10 users. */
async function seed(db: Kysely<BenchDb>, count: number, nowMs: number): Promise<void> {
  await db.deleteFrom(TABLE).execute();
  const users = Math.max(1, Math.floor(count / 10));
  for (let start = 0; start < count; start += 500) {
    const rows = [];
    for (let n = start; n < Math.min(count, start + 500); n++) {
      const created = nowMs - (count - n) * 1000;
      rows.push({
        id: `seed-${String(n).padStart(7, '0')}`,
        user_id: `user-${n % users}`,
        refresh_jti: `jti-${n}`,
        security_stamp: 'stamp',
        created_at: created,
        last_activity_at: created,
        expires_at: n % 20 === 1 ? created + 1000 : nowMs + 14 * DAY,
        expired_at: n % 20 === 2 ? created + 500 : null,
        ip_address: '203.0.113.7',
        user_agent: UA,
        browser: 'Firefox 128 on Linux',
        location: '{"city":"Berlin","country_code":"DE"}',
      });
    }
    await db.insertInto(TABLE).values(rows).execute();
  }
}

function request(query: string, token: string): SessauthRequest {
  return {
    method: 'GET',
    path: '/admin/sessauth/session/',
    query,
    headers: new Map([['authorization', [`Bearer ${token}`]]]),
    peerAddress: '127.0.0.1',
    secure: false,
    readBody: async () => new Uint8Array(),
  };
}

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms`;
}

async function benchOne(url: string, label: string): Promise<void> {
  const opened = await openKyselyFromUrl(url);
  const db = opened.db as Kysely<BenchDb>;
  try {
    await migrateToLatest(opened.db, { tableName: TABLE, rateLimitTableName: RATE_TABLE });
    const store = new KyselySessionStore(opened.db, { tableName: TABLE });
    const users = {
      findById: async (id: string) => (id === admin.id ? admin : null),
      idOf: (u: BenchUser) => u.id,
      securityStamp: () => 'stamp',
      findByUsername: async () => ({ user: admin, passwordHash: 'pw' }),
    };
    const auth = await createSessauth<BenchUser>({
      options: { secretKey: 'bench-secret-bench-secret-bench-secret!!', issuer: 'bench', audience: 'bench', loginThrottleRate: '0' },
      store,
      users,
      admin: { isAdmin: () => true },
      authenticator: createPasswordAuthenticator({ users, hasher: { hash: async (p) => p, verify: async (h, p) => h === p } }),
      logger: { warn: () => undefined, error: () => undefined },
    });
    for (const size of SIZES) {
      const nowMs = Date.now();
      await seed(db, size, nowMs);
      if (opened.dialect === 'postgres') await sql`analyze ${sql.table(TABLE)}`.execute(opened.db);
      else await sql`analyze`.execute(opened.db);
      const login = await auth.handle({
        ...request('', ''),
        method: 'POST',
        path: '/auth/login/',
        headers: new Map([['content-type', ['application/json']]]),
        readBody: async () => new TextEncoder().encode('{"username":"admin","password":"pw"}'),
      });
      const token = (JSON.parse(login!.body!) as { access_token: string }).access_token;
      // The position 60 rows before the end: the last page but one of 50.
      const deepRow = await db
        .selectFrom(TABLE)
        .select(['created_at', 'id'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .offset(Math.max(0, size - 60))
        .executeTakeFirstOrThrow();
      const deep = encodeAdminCursor({ createdAt: new Date(Number(deepRow.created_at)), id: String(deepRow.id) });
      const scenarios: Array<[string, string]> = [
        ['first page (HTML, 50 rows)', ''],
        ['deep page (HTML, cursor 60 rows from the end)', `after=${deep}`],
        ['first page (JSON)', 'format=json'],
        ['deep page (JSON)', `format=json&after=${deep}`],
        ['first page, status=revoked', 'status=revoked'],
        ['first page, status=active', 'status=active'],
        ['first page, one user', 'user=user-7'],
      ];
      for (const [name, query] of scenarios) {
        const req = request(query, token);
        const first = await auth.handle(req);
        if (first?.status !== 200) throw new Error(`${name}: status ${first?.status} ${first?.body?.slice(0, 200)}`);
        for (let i = 0; i < 20; i++) await auth.handle(req);
        const samples: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const t0 = performance.now();
          await auth.handle(req);
          samples.push(performance.now() - t0);
        }
        console.log(`${label} | ${size.toLocaleString('en')} sessions | ${name} | ${stats(samples)}`);
      }
      // For contrast only: what OFFSET pagination would cost for the same deep page.
      const samples: number[] = [];
      for (let i = 0; i < Math.min(ROUNDS, 50); i++) {
        const t0 = performance.now();
        await db
          .selectFrom(TABLE)
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(51)
          .offset(Math.max(0, size - 60))
          .execute();
        samples.push(performance.now() - t0);
      }
      console.log(`${label} | ${size.toLocaleString('en')} sessions | (contrast) same deep page by OFFSET, query only | ${stats(samples)}`);
    }
    await db.schema.dropTable(TABLE).ifExists().execute();
  } finally {
    await opened.destroy();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sessauth-bench-'));
try {
  await benchOne(`sqlite:${join(dir, 'bench.db')}`, 'SQLite');
  const pg = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (pg !== 'none') {
    try {
      await benchOne(pg, 'PostgreSQL');
    } catch (error) {
      console.log(`PostgreSQL skipped: ${(error as Error).message}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
