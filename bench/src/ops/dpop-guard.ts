// The guard with DPoP (JWT_DPOP, RFC 9449) beside the Bearer guard, per store, in process
// (issue 22): what one proof-bound request costs. Three guards over one store, slices
// interleaved: Bearer with DPoP off (today's guard), Bearer on an engine with DPoP allowed (the
// setting on, the session unbound), and a DPoP-bound session (an ES256 proof verified, its key's
// thumbprint, `ath`, and the proof's `jti` recorded in the store's rate-limit table or keys,
// shared by every instance). Beside them, one proof verification alone (jose's ES256 verify and
// the key's thumbprint, the library work the guard does per proof): the rest of the difference
// is the `jti` write, which is the store's. The proofs are signed before each slice (a client's
// cost, not the server's), one per call. Process CPU per call leaves out the database server's.
import type { Sessauth } from '@sessauth/core';
import type { AuthenticateInput } from '@sessauth/core';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import { BenchUsers, type BenchUser, createBenchAuth, type BenchOverrides, logIn } from '../bench-auth.js';
import type { StoreName } from '../config.js';
import { measureSlice, type Once, type Slice } from '../cpu-per-call.js';
import type { OperationRow } from '../results.js';
import { spread, type Spread } from '../stats.js';
import { openStore } from '../stores/open-store.js';
import { opsUser } from './engine-fixture.js';

const CALLERS = 32;
const HOST = 'bench.example';
const GUARDED = `http://${HOST}/me`;

interface ProofKey {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function newKey(): Promise<ProofKey> {
  const pair = await generateKeyPair('ES256');
  return { privateKey: pair.privateKey as CryptoKey, jwk: await exportJWK(pair.publicKey) };
}

/** A DPoP proof as a client signs it (RFC 9449 s4.2), written from the RFC. */
function proof(key: ProofKey, htm: string, htu: string, ath?: string): Promise<string> {
  return new SignJWT({ jti: crypto.randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...(ath === undefined ? {} : { ath }) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

async function athOf(token: string): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))).toString('base64url');
}

const guardRequest = (dpop?: string): AuthenticateInput['request'] => ({
  method: 'GET',
  path: '/me',
  headers: new Map<string, string[]>([['host', [HOST]], ...(dpop === undefined ? [] : [['dpop', [dpop]] as [string, string[]]])]),
  peerAddress: '127.0.0.1',
  secure: false,
});

/** Something measured in slices; `prepare` runs before each slice, outside the measurement. */
export interface SliceTarget {
  readonly name: string;
  prepare(expectedCalls: number): Promise<Once>;
}

/** Proofs for one slice, signed ahead; a slice that uses them up ends early (its rate is per elapsed second). */
function proofTarget(name: string, make: () => Promise<string>, call: (proof: string) => Promise<unknown>): SliceTarget {
  return {
    name,
    async prepare(expectedCalls) {
      const proofs = await Promise.all(Array.from({ length: expectedCalls }, make));
      let next = 0;
      return () => {
        const dpop = proofs[next++];
        return dpop === undefined ? null : call(dpop);
      };
    },
  };
}

/** Each target one slice per round, order alternating, after a warm-up slice each (which also sizes the proof supply). */
export async function interleave(targets: readonly SliceTarget[], rounds: number, seconds: number): Promise<Map<string, Slice[]>> {
  const expected = new Map<string, number>();
  const run = async (target: SliceTarget, slice: number) => {
    const once = await target.prepare(Math.ceil((expected.get(target.name) ?? 2000) * slice * 1.5) + 100);
    const result = await measureSlice(once, slice, CALLERS);
    expected.set(target.name, result.callsPerSecond);
    return result;
  };
  for (const target of targets) await run(target, Math.min(1, seconds));
  const results = new Map<string, Slice[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) results.get(target.name)!.push(await run(target, seconds));
  }
  return results;
}

/** One proof verification alone: the proof's key imported, the ES256 signature and claims checked, the key's thumbprint. */
export async function proofVerificationTarget(): Promise<SliceTarget> {
  const key = await newKey();
  return proofTarget(
    'one DPoP proof verification (jose ES256 verify + thumbprint)',
    () => proof(key, 'GET', GUARDED),
    async (dpop) => {
      await jwtVerify(dpop, await importJWK(key.jwk, 'ES256'), { typ: 'dpop+jwt', algorithms: ['ES256'] });
      return calculateJwkThumbprint(key.jwk, 'sha256');
    },
  );
}

export const BEARER_OFF = 'Bearer guard, JWT_DPOP off';
export const BEARER_ALLOWED = 'Bearer guard, JWT_DPOP allowed (unbound session)';
export const DPOP_BOUND = 'DPoP guard (ES256 proof, ath, jti record)';

export interface DpopGuardSetup {
  readonly targets: readonly SliceTarget[];
  close(): Promise<void>;
}

/** The three guards over one store (each engine its own user, its own sessions). */
export async function dpopGuardTargets(store: StoreName): Promise<DpopGuardSetup> {
  const opened = await openStore(store);
  try {
    const engine = async (tag: string, overrides: BenchOverrides) => {
      const user = opsUser(`dpop-${tag}`);
      const auth = await createBenchAuth(opened.sessions, opened.rateLimits, await BenchUsers.create([user]), overrides);
      return { auth, user };
    };
    const off = await engine('off', { dpop: 'off' });
    const offToken = (await logIn(off.auth, off.user.username, off.user.password)).accessToken;
    const allowed = await engine('allowed', { dpop: 'allowed' });
    const bearerToken = (await logIn(allowed.auth, allowed.user.username, allowed.user.password)).accessToken;
    const key = await newKey();
    const loginProof = await proof(key, 'POST', `http://${HOST}${allowed.auth.options.prefix}/login/`);
    const dpopToken = (await logIn(allowed.auth, allowed.user.username, allowed.user.password, { host: HOST, dpop: loginProof })).accessToken;
    const ath = await athOf(dpopToken);
    const guard = (auth: Sessauth<BenchUser>, authorization: string, dpop?: string) =>
      auth.authenticate({ authorization: [authorization], request: guardRequest(dpop) });
    // One call each first: a refused credential would measure the 401 path.
    await guard(off.auth, `Bearer ${offToken}`);
    await guard(allowed.auth, `Bearer ${bearerToken}`);
    await guard(allowed.auth, `DPoP ${dpopToken}`, await proof(key, 'GET', GUARDED, ath));
    const plain = (name: string, call: () => Promise<unknown>): SliceTarget => ({ name, prepare: async () => call });
    return {
      targets: [
        plain(BEARER_OFF, () => guard(off.auth, `Bearer ${offToken}`)),
        plain(BEARER_ALLOWED, () => guard(allowed.auth, `Bearer ${bearerToken}`)),
        proofTarget(
          DPOP_BOUND,
          () => proof(key, 'GET', GUARDED, ath),
          (dpop) => guard(allowed.auth, `DPoP ${dpopToken}`, dpop),
        ),
      ],
      close: () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Per-round differences a - b. */
export const differences = (a: readonly Slice[], b: readonly Slice[]): Spread => spread(a.map((s, i) => s.cpuMicrosPerCall - b[i]!.cpuMicrosPerCall));
export const cpuSpread = (slices: readonly Slice[]): Spread => spread(slices.map((s) => s.cpuMicrosPerCall));
export const rateRatios = (a: readonly Slice[], b: readonly Slice[]): Spread => spread(a.map((s, i) => s.callsPerSecond / b[i]!.callsPerSecond));

const us = (s: Spread) => `${s.median.toFixed(1)} µs (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;

/** The operation rows of `pnpm bench`: per store, the DPoP guard's CPU per request and its rate against the Bearer guard's. */
export async function dpopGuardRows(store: StoreName, rounds: number, seconds: number, proofAlone: Spread | undefined): Promise<OperationRow[]> {
  const setup = await dpopGuardTargets(store);
  try {
    const slices = await interleave(setup.targets, rounds, seconds);
    const off = slices.get(BEARER_OFF)!;
    const allowed = slices.get(BEARER_ALLOWED)!;
    const bound = slices.get(DPOP_BOUND)!;
    const added = differences(bound, off);
    const proofPart = proofAlone === undefined ? '' : `, of which one proof verification alone is ${proofAlone.median.toFixed(1)} µs`;
    return [
      {
        operation: 'guard with DPoP: server CPU per request (in process)',
        store,
        unit: 'µs',
        value: cpuSpread(bound),
        target: undefined,
        met: undefined,
        detail:
          `${CALLERS} callers; Bearer guard ${us(cpuSpread(off))}, Bearer with JWT_DPOP allowed ${us(cpuSpread(allowed))}; ` +
          `DPoP adds ${us(added)} per request${proofPart}, the rest the \`jti\` record in the store and \`ath\`; not the database server's CPU`,
      },
      {
        operation: 'guard with DPoP / Bearer guard, calls per second (in process)',
        store,
        unit: 'x',
        value: rateRatios(bound, off),
        target: undefined,
        met: undefined,
        detail: `${CALLERS} callers; DPoP ${Math.round(spread(bound.map((s) => s.callsPerSecond)).median)}/s, Bearer ${Math.round(spread(off.map((s) => s.callsPerSecond)).median)}/s`,
      },
    ];
  } finally {
    await setup.close();
  }
}
