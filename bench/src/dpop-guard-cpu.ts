// CPU time per call of the guard with DPoP (JWT_DPOP, RFC 9449) beside the Bearer guard, in
// process, per store (what ops/dpop-guard.ts measures; `pnpm bench` runs it among the operations):
//   node --import ../node_modules/tsx/dist/loader.mjs --conditions=@sessauth/source src/dpop-guard-cpu.ts \
//     [--stores memory,sqlite,postgres,mariadb,redis] [--rounds N] [--seconds S]
import { parseArgs } from 'node:util';
import { STORE_NAMES, type StoreName } from './config.js';
import {
  BEARER_OFF,
  cpuSpread,
  differences,
  dpopGuardTargets,
  DPOP_BOUND,
  interleave,
  proofVerificationTarget,
  rateRatios,
} from './ops/dpop-guard.js';
import { prepareStores } from './prepare-stores.js';
import { cleanUp } from './stores/cleanup.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, seconds: { type: 'string' }, stores: { type: 'string' } } });
const rounds = Number(values.rounds ?? 10);
const seconds = Number(values.seconds ?? 1);
const stores = (values.stores ?? 'memory').split(',').filter(Boolean) as StoreName[];
for (const store of stores) if (!STORE_NAMES.includes(store)) throw new Error(`unknown store ${store}`);

const fmt = (s: { median: number; min: number; max: number }, digits = 1) =>
  `${s.median.toFixed(digits).padStart(7)} (${s.min.toFixed(digits)}-${s.max.toFixed(digits)})`;

const persistent = stores.filter((s) => s !== 'memory');
if (persistent.length > 0) await prepareStores(persistent, console.log);
try {
  const proofSlices = await interleave([await proofVerificationTarget()], rounds, seconds);
  const [proofName, proofAlone] = [...proofSlices][0]!;
  console.log(`CPU per call, ${rounds} rounds × ${seconds} s, 32 in flight (median, min-max); not the database server's CPU`);
  console.log(`${proofName.padEnd(60)} ${fmt(cpuSpread(proofAlone))} µs`);
  for (const store of stores) {
    const setup = await dpopGuardTargets(store);
    try {
      const slices = await interleave(setup.targets, rounds, seconds);
      for (const [name, cpu] of slices) console.log(`${`${store}: ${name}`.padEnd(60)} ${fmt(cpuSpread(cpu))} µs`);
      const bound = slices.get(DPOP_BOUND)!;
      const off = slices.get(BEARER_OFF)!;
      console.log(`${`${store}: DPoP guard - Bearer guard`.padEnd(60)} ${fmt(differences(bound, off))} µs`);
      console.log(`${`${store}: DPoP guard / Bearer guard, calls per second`.padEnd(60)} ${fmt(rateRatios(bound, off), 2)} x`);
    } finally {
      await setup.close();
    }
  }
} finally {
  if (persistent.length > 0) await cleanUp();
}
