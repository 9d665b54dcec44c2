import { parseArgs } from 'node:util';
import { STORE_NAMES, type StoreName } from './config.js';
import { FRAMEWORKS, ROUTE_KINDS, type Framework, type RouteKind } from './variants.js';

export interface BenchArgs {
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** A second saturated load with this many connections (0: none). */
  readonly highConnections: number;
  /** The paced load, as a fraction of jose-only's saturated rate (0: none). */
  readonly pacedFraction: number;
  readonly frameworks: readonly Framework[];
  readonly stores: readonly StoreName[];
  readonly peers: boolean;
  readonly routes: readonly RouteKind[] | undefined;
  readonly guard: boolean;
  readonly operations: boolean;
  readonly opsSeconds: number;
  readonly scale: readonly number[];
  readonly generator: 'wrk' | 'autocannon' | undefined;
  readonly out: string;
  readonly keep: boolean;
}

export const USAGE = `pnpm bench [options]
  --rounds N            interleaved rounds (default 4; use more on a busy machine)
  --duration S          measured seconds per variant, load and round (default 8)
  --warmup S            warm-up seconds per variant before the rounds (default 2)
  --connections C       load-generator connections (default 32)
  --high-connections C  a second saturated load with C connections (default 256; 0 skips it)
  --paced-load F        a fixed offered load at F × jose-only's saturated rate, open loop (default 0.5; 0 skips it)
  --frameworks a,b      ${FRAMEWORKS.join(',')} (default all)
  --stores a,b          ${STORE_NAMES.join(',')} (default all)
  --no-peers            skip better-auth and express-session
  --routes a,b          only these routes: ${ROUTE_KINDS.join(',')} (default all)
  --guard-only          only the guarded-route matrix
  --ops-only            only the other operations (refresh, login, list, burst, scale)
  --ops-seconds S       seconds per measured slice of an operation (default 3)
  --scale a,b           stored-session counts of the scale test (default 10000,1000000)
  --generator wrk|autocannon   (default: wrk when installed)
  --out DIR             where results go (default bench/results)
  --keep                leave the seeded tables and keys in place`;

const list = <T extends string>(value: string | undefined, allowed: readonly T[], name: string): readonly T[] => {
  if (value === undefined) return allowed;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) throw new Error(`--${name}: unknown "${item}" (use ${allowed.join(', ')})`);
  return items as T[];
};

const positive = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative number`);
  return parsed;
};

export function parseBenchArgs(argv: readonly string[], defaultOut: string): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'high-connections': { type: 'string' },
      'paced-load': { type: 'string' },
      frameworks: { type: 'string' },
      stores: { type: 'string' },
      'no-peers': { type: 'boolean' },
      routes: { type: 'string' },
      'guard-only': { type: 'boolean' },
      'ops-only': { type: 'boolean' },
      'ops-seconds': { type: 'string' },
      scale: { type: 'string' },
      generator: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const generator = values.generator;
  if (generator !== undefined && generator !== 'wrk' && generator !== 'autocannon') throw new Error('--generator: wrk or autocannon');
  const rounds = positive(values.rounds, 4, 'rounds');
  if (rounds < 3 && values['ops-only'] !== true) console.warn('fewer than 3 rounds: ratios will be unreliable');
  return {
    rounds,
    durationSeconds: positive(values.duration, 8, 'duration'),
    warmupSeconds: positive(values.warmup, 2, 'warmup'),
    connections: positive(values.connections, 32, 'connections'),
    highConnections: positive(values['high-connections'], 256, 'high-connections'),
    pacedFraction: positive(values['paced-load'], 0.5, 'paced-load'),
    frameworks: list(values.frameworks, FRAMEWORKS, 'frameworks'),
    stores: list(values.stores, STORE_NAMES, 'stores'),
    peers: values['no-peers'] !== true,
    routes: values.routes === undefined ? undefined : list(values.routes, ROUTE_KINDS, 'routes'),
    guard: values['ops-only'] !== true,
    operations: values['guard-only'] !== true,
    opsSeconds: positive(values['ops-seconds'], 3, 'ops-seconds'),
    scale: (values.scale ?? '10000,1000000').split(',').map((s) => positive(s, 0, 'scale')),
    generator,
    out: values.out ?? defaultOut,
    keep: values.keep === true,
  };
}
