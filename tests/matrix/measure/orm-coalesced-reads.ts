// The guard with coalesced session reads on and off over the Drizzle and Prisma stores on
// PostgreSQL, in process, side by side (the ORM rows of bench/results/coalesced-reads.md):
//   cd tests/matrix && node ../../node_modules/tsx/dist/cli.mjs --conditions=@sessauth/source measure/orm-coalesced-reads.ts
// Two engines over ONE store (on and off) run `auth.authenticate` in closed loops of 1, 4, 32 and
// 256 callers, 4 interleaved rounds of 1 s each (off, on, on, off, ...); medians and min-max.
import { createSessauth, SessauthError, type Sessauth, type SessionStore } from '@sessauth/core';
import { drizzlePgShared, prismaPgShared } from '../src/orm-stores.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
interface User {
  readonly id: string;
}
const engine = (store: SessionStore, coalesceSessionReads: boolean) =>
  createSessauth<User>({
    options: {
      secretKey: 'scratch-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      issuer: 'https://i.test',
      audience: 'a',
      maxActiveSessions: 1000,
      coalesceSessionReads,
    },
    store,
    users: { findById: async (id) => ({ id }), idOf: (u) => u.id, securityStamp: () => 's' },
    authenticator: async () => {
      throw new SessauthError('invalid_credentials');
    },
  });
async function measure(auth: Sessauth<User>, tokens: string[], callers: number, seconds: number) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      const authorization = [`Bearer ${tokens[c % tokens.length]}`];
      while (performance.now() < until) {
        await auth.authenticate({ authorization });
        done += 1;
      }
    }),
  );
  return done / seconds;
}
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return (s[1]! + s[2]!) / 2;
};
for (const [name, open] of [
  ['drizzle-postgres', drizzlePgShared],
  ['prisma-postgres', prismaPgShared],
] as const) {
  const shared = await open(DATABASE_URL);
  try {
    const store = shared.stores[0];
    const [off, on] = [await engine(store, false), await engine(store, true)];
    const tokens: string[] = [];
    for (let i = 0; i < 256; i += 1) tokens.push((await off.createSessionFor(`u${i % 16}`, { ip: null })).access_token);
    await measure(off, tokens, 32, 1);
    await measure(on, tokens, 32, 1);
    for (const callers of [1, 4, 32, 256]) {
      const r = { off: [] as number[], on: [] as number[] };
      for (let round = 0; round < 4; round += 1)
        for (const m of (round % 2 ? ['on', 'off'] : ['off', 'on']) as Array<'on' | 'off'>)
          r[m].push(await measure(m === 'on' ? on : off, tokens, callers, 1));
      console.log(
        `| ${name} | ${callers} | ${Math.round(median(r.off))} (${Math.round(Math.min(...r.off))}-${Math.round(Math.max(...r.off))}) | ${Math.round(median(r.on))} (${Math.round(Math.min(...r.on))}-${Math.round(Math.max(...r.on))}) | ${(median(r.on) / median(r.off)).toFixed(2)}x |`,
      );
    }
  } finally {
    await shared.close();
  }
}
process.exit(0);
