// CPU time per call of the guard with DPoP (JWT_DPOP, RFC 9449) beside the Bearer guard, in
// process, on the memory session and rate-limit stores:
//   node --import tsx --conditions=@sessauth/source src/dpop-guard-cpu.ts [--rounds N] [--seconds S]
// Three guards: Bearer with DPoP off (today's guard), Bearer on an engine with DPoP allowed, and
// a DPoP-bound session (ES256 proof verified with jose, its thumbprint, `ath`, the jti record).
// The proofs are signed before each slice (a client's cost, not the server's), one per call.
import { parseArgs } from 'node:util';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import * as core from '@sessauth/core';
import { AUDIENCE, BENCH_USER, ISSUER, SECRET, SEEDED_SESSIONS } from './config.js';
import { spread } from './stats.js';

const CALLERS = 32;
const HOST = 'bench.example';
const { values } = parseArgs({ options: { rounds: { type: 'string' }, seconds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 10);
const seconds = Number(values.seconds ?? 1);

const plainHasher = { hash: async (p: string) => p, verify: async (h: string, p: string) => h === p };
const user = { id: BENCH_USER.id, username: BENCH_USER.username, password: BENCH_USER.password, stamp: 'stamp-1' };
const users = {
  findById: async (id: string) => (id === user.id ? user : null),
  idOf: (u: typeof user) => u.id,
  securityStamp: (u: typeof user) => u.stamp,
  findByUsername: async (name: string) => (name === user.username ? { user, passwordHash: user.password } : null),
};

async function engine(dpop: core.DpopMode): Promise<core.Sessauth<typeof user>> {
  const store = new core.MemorySessionStore();
  const now = new Date();
  for (let i = 0; i < SEEDED_SESSIONS; i += 1) {
    await store.createSession({
      session: {
        id: `filler-${i}`,
        userId: `filler-user-${i}`,
        refreshJti: `j${i}`,
        securityStamp: 's',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        ipAddress: null,
        userAgent: null,
        browser: null,
        location: null,
      },
      maxActiveSessions: 20,
    });
  }
  return core.createSessauth({
    options: { secretKey: SECRET, issuer: ISSUER, audience: AUDIENCE, loginThrottleRate: '0', accessTokenExpireSeconds: 3600, dpop },
    store,
    users,
    authenticator: core.createPasswordAuthenticator({ users, hasher: plainHasher }),
  });
}

async function login(auth: core.Sessauth<typeof user>, dpop?: string): Promise<string> {
  const body = new TextEncoder().encode(JSON.stringify({ username: user.username, password: user.password }));
  const headers = new Map<string, string[]>([
    ['content-type', ['application/json']],
    ['host', [HOST]],
  ]);
  if (dpop !== undefined) headers.set('dpop', [dpop]);
  const answer = await auth.handle({
    method: 'POST',
    path: '/auth/login/',
    query: '',
    peerAddress: '127.0.0.1',
    secure: false,
    headers,
    readBody: async () => body,
  });
  return (JSON.parse(answer!.body!) as { access_token: string }).access_token;
}

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

function proof(key: Key, htm: string, htu: string, ath?: string): Promise<string> {
  return new SignJWT({ jti: crypto.randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...(ath === undefined ? {} : { ath }) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

async function athOf(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Buffer.from(digest).toString('base64url');
}

const guardRequest = (dpop?: string): core.AuthenticateInput['request'] => ({
  method: 'GET',
  path: '/me',
  headers: new Map<string, string[]>([['host', [HOST]], ...(dpop === undefined ? [] : [['dpop', [dpop]] as [string, string[]]])]),
  peerAddress: '127.0.0.1',
  secure: false,
});

/** One guard call, or null when the slice's pre-signed proofs are used up (the slice ends there). */
type Once = () => Promise<unknown> | null;
/** A target: runs before each slice (outside the measurement) and gives the call. */
type Target = () => Promise<Once>;

async function cpuPerCall(target: Target): Promise<number> {
  const once = await target();
  const end = performance.now() + seconds * 1000;
  let calls = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < end) {
        const call = once();
        if (call === null) return;
        await call;
        calls += 1;
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const off = await engine('off');
const offToken = await login(off);
const allowed = await engine('allowed');
const bearerToken = await login(allowed);
const pair = await generateKeyPair('ES256');
const key: Key = { privateKey: pair.privateKey as CryptoKey, jwk: await exportJWK(pair.publicKey) };
const dpopToken = await login(allowed, await proof(key, 'POST', `http://${HOST}/auth/login/`));
const ath = await athOf(dpopToken);
console.log(`bound to ${await calculateJwkThumbprint(key.jwk)}`);

/** Pre-signed proofs for one slice: more than it can use, so signing never counts. */
async function presigned(count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, () => proof(key, 'GET', `http://${HOST}/me`, ath)));
}

const targets: [string, Target][] = [
  ['Bearer guard, JWT_DPOP off', async () => () => off.authenticate({ authorization: [`Bearer ${offToken}`], request: guardRequest() })],
  ['Bearer guard, JWT_DPOP allowed', async () => () => allowed.authenticate({ authorization: [`Bearer ${bearerToken}`], request: guardRequest() })],
  [
    'DPoP guard (ES256 proof + jti record)',
    async () => {
      // More than a slice uses on this machine; a slice that runs out just ends early.
      const proofs = await presigned(Math.ceil(10_000 * seconds));
      let next = 0;
      return () => {
        const dpop = proofs[next++];
        if (dpop === undefined) return null;
        return allowed.authenticate({ authorization: [`DPoP ${dpopToken}`], request: guardRequest(dpop) });
      };
    },
  ],
];
// Warm-up, then rounds with the order alternating.
for (const [, target] of targets) await cpuPerCall(target);
const results = new Map<string, number[]>(targets.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, target] of round % 2 === 0 ? targets : [...targets].reverse()) results.get(name)!.push(await cpuPerCall(target));
}
console.log(`CPU per guard call, memory stores, ${rounds} rounds × ${seconds} s, ${CALLERS} in flight (median, min-max)`);
for (const [name, cpu] of results) {
  const s = spread(cpu);
  console.log(`${name.padEnd(40)} ${s.median.toFixed(1).padStart(7)} µs (${s.min.toFixed(1)}-${s.max.toFixed(1)})`);
}
