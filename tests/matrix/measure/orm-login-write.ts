// A login's session write (`createSession`, the store call after the password) over the Drizzle
// and Prisma stores on PostgreSQL, in process: one statement through the login function against the
// transaction the store takes without it; and the Drizzle store on MariaDB: one compound statement
// against the transaction it takes on MySQL (MariaDB made to refuse compound statements as MySQL
// does). The rows of bench/results/orm-login-write.md:
//   cd tests/matrix && node ../../node_modules/tsx/dist/cli.mjs --conditions=@sessauth/source measure/orm-login-write.ts
// Each side has its own tables (the function made or not); closed loops of 1, 8 and 32 callers, each
// caller its own user at cap 3 (so a write evicts once the user has 3), 4 interleaved rounds of 2 s
// (function, transaction, transaction, function, ...); medians and min-max, writes per second.
import { randomBytes } from 'node:crypto';
import type { NewSession, SessionStore } from '@sessauth/core/store';
import { drizzleMysqlStores, ormPgStores } from '../src/orm-stores.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const ROUNDS = 4;
const SECONDS = 2;
const CALLERS = [1, 8, 32];

/** A login's new session, as the core hands it to the store (the conformance kit's fixture needs vitest). */
function newSession(userId: string): NewSession {
  const createdAt = new Date();
  return {
    id: randomBytes(16).toString('hex'),
    userId,
    refreshJti: randomBytes(16).toString('hex'),
    securityStamp: randomBytes(32).toString('hex'),
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 14 * 86_400_000),
    authTime: createdAt,
    amr: ['pwd'],
    acr: null,
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    browser: 'Firefox 128 on Linux',
    location: null,
  };
}

async function measure(stores: { store: SessionStore }, callers: number): Promise<number> {
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  const run = randomBytes(3).toString('hex');
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      const userId = `bench-${run}-${caller}`;
      while (performance.now() < until) {
        await stores.store.createSession({ session: newSession(userId), maxActiveSessions: 3 });
        done += 1;
      }
    }),
  );
  return done / SECONDS;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2 : (sorted[middle] ?? 0);
};
const format = (values: number[]) => `${Math.round(median(values))} (${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))})`;

interface Side {
  readonly store: SessionStore;
  close(): Promise<void>;
}

/** One statement against the transaction, interleaved, for each number of callers. */
async function compare(label: string, oneStatement: Side, transaction: Side): Promise<void> {
  try {
    for (const callers of CALLERS) {
      const one: number[] = [];
      const inTransaction: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? [true, false] : [false, true];
        for (const first of order) (first ? one : inTransaction).push(await measure(first ? oneStatement : transaction, callers));
      }
      console.log(`| ${label} | ${callers} | ${format(one)} | ${format(inTransaction)} | ${(median(one) / median(inTransaction)).toFixed(2)} |`);
    }
  } finally {
    await oneStatement.close();
    await transaction.close();
  }
}

console.log('| store | callers | one statement | transaction | ratio |');
console.log('| --- | --- | --- | --- | --- |');
for (const orm of ['prisma', 'drizzle'] as const) {
  await compare(
    `${orm} PostgreSQL`,
    await ormPgStores(orm, DATABASE_URL, { connection: { max: 34 } }),
    await ormPgStores(orm, DATABASE_URL, { loginFunction: false, connection: { max: 34 } }),
  );
}
await compare('drizzle MariaDB', await drizzleMysqlStores(MYSQL_URL), await drizzleMysqlStores(MYSQL_URL, { asMysql: true }));
