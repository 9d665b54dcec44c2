// CPU time per call of the guard, in process, against jose's verify alone:
//   node --import tsx --conditions=@sessauth/source src/guard-cpu.ts [--core <core package dir>]... [--rounds N]
// With `--stores memory,postgres,...` it also sets, per store, the hand-written "jose + one
// read" against sessauth's guard on the real store (the database server's CPU not counted).
// Each `--core` is a copy of packages/core (for example an older commit's src with this
// node_modules linked in) measured side by side with the others, slices interleaved.
// Process CPU (every thread, so the thread pool's share too) per call is what other
// processes on a shared machine disturb least.
import { createSecretKey } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { jwtVerify } from 'jose';
import type * as Core from '@sessauth/core';
import { AUDIENCE, BENCH_USER, ISSUER, SECRET, SEEDED_SESSIONS } from './config.js';
import { cpuPerCall, type Once } from './cpu-per-call.js';
import { guardOf } from './memory-guard.js';
import { BenchUsers, createBenchAuth, logIn } from './bench-auth.js';
import { ACCESS_TOKEN_SECONDS, type StoreName } from './config.js';
import { prepareStores } from './prepare-stores.js';
import { createHandGuard } from './servers/hand-guards.js';
import { createJoseVerifier, mintAccessToken } from './servers/jose-verifier.js';
import { spread } from './stats.js';
import { cleanUp } from './stores/cleanup.js';
import { openStore } from './stores/open-store.js';
import { HAND_SESSION_ID, seedSessions } from './stores/seed.js';

const CALLERS = 32;

const { values } = parseArgs({
  options: { core: { type: 'string', multiple: true }, rounds: { type: 'string' }, seconds: { type: 'string' }, stores: { type: 'string' } },
});
const rounds = Number(values.rounds ?? 10);
const seconds = Number(values.seconds ?? 1);
const cores = values.core ?? [];

async function joseOnly(): Promise<Once> {
  const key = createSecretKey(Buffer.from(SECRET, 'utf8'));
  const { SignJWT } = await import('jose');
  const token = await new SignJWT({ sid: 'x' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(BENCH_USER.id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
  return () => jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
}

const targets: [string, Once][] = [
  ['jose verify only', await joseOnly()],
  ['guard (this tree)', await guardOf(await import('@sessauth/core'))],
];
for (const dir of cores)
  targets.push([`guard (${dir})`, await guardOf((await import(pathToFileURL(resolve(dir, 'src/index.ts')).href)) as typeof Core)]);
const stores = (values.stores ?? '').split(',').filter(Boolean) as StoreName[];
if (stores.length > 0) await prepareStores(stores, console.log);
const closers: (() => Promise<void>)[] = [];
for (const store of stores) {
  const token = await mintAccessToken(BENCH_USER.id, HAND_SESSION_ID, ACCESS_TOKEN_SECONDS);
  const hand = await createHandGuard(store, await createJoseVerifier());
  closers.push(() => hand.close());
  targets.push([`hand-written jose + one read, ${store}`, () => hand.verify(`Bearer ${token}`)]);
  const opened = await openStore(store);
  closers.push(() => opened.close());
  if (store === 'memory') await seedSessions(opened.sessions, SEEDED_SESSIONS);
  const users = await BenchUsers.create([BENCH_USER]);
  const auth = await createBenchAuth(opened.sessions, opened.rateLimits, users);
  const { accessToken } = await logIn(auth, BENCH_USER.username, BENCH_USER.password);
  const input = { authorization: [`Bearer ${accessToken}`] };
  targets.push([`sessauth guard, ${store}`, () => auth.authenticate(input)]);
}
for (const [, once] of targets) await cpuPerCall(once, seconds, CALLERS);
const results = new Map<string, number[]>(targets.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, once] of round % 2 === 0 ? targets : [...targets].reverse()) results.get(name)!.push(await cpuPerCall(once, seconds, CALLERS));
}
const jose = results.get('jose verify only')!;
console.log(`CPU per call, ${rounds} rounds × ${seconds} s, ${CALLERS} in flight; ratio = jose's CPU per call / this one's (per round)`);
for (const [name, cpu] of results) {
  const s = spread(cpu);
  const ratio = spread(cpu.map((c, i) => jose[i]! / c));
  console.log(
    `${name.padEnd(44)} ${s.median.toFixed(1).padStart(7)} µs (${s.min.toFixed(1)}-${s.max.toFixed(1)})   ratio ${ratio.median.toFixed(2)} (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`,
  );
}
for (const close of closers) await close();
if (stores.length > 0) await cleanUp();
