import type { Logger } from '../log/logger.js';

/** The most a stored hash may ask of a verification: beyond it the hash is refused unverified. */
export interface Argon2CostCeiling {
  /** KiB. @default 262144 (256 MiB) */
  readonly memoryCost?: number;
  /** Passes. @default 16 */
  readonly timeCost?: number;
  /** Lanes. @default 8 */
  readonly parallelism?: number;
}

/** The argon2id parameters of new hashes, as @node-rs/argon2 names them. */
export interface Argon2Cost {
  /** KiB. */
  readonly memoryCost: number;
  /** Passes. */
  readonly timeCost: number;
  /** Lanes. */
  readonly parallelism: number;
}

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const OWASP_ARGON2ID: Argon2Cost = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// The cost parameters of a PHC string: $argon2id$v=19$m=19456,t=2,p=1$salt$hash
const PHC_COSTS = /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$/;

/**
 * True when the stored hash asks for more than the ceiling (a tampered row, a hash imported
 * from elsewhere): it is refused without running, and logged without the hash.
 */
export function overCeiling(storedHash: string, ceiling: Argon2CostCeiling | undefined, logger: Logger): boolean {
  const costs = PHC_COSTS.exec(storedHash);
  if (costs === null) return false;
  const limit = { memoryCost: 262_144, timeCost: 16, parallelism: 8, ...ceiling };
  const [memoryCost, timeCost, parallelism] = costs.slice(1).map(Number) as [number, number, number];
  if (memoryCost <= limit.memoryCost && timeCost <= limit.timeCost && parallelism <= limit.parallelism) return false;
  logger.warn('password_hash_over_cost_ceiling', { memoryCost, timeCost, parallelism });
  return true;
}

// OWASP's equivalent argon2id settings (Password Storage Cheat Sheet): each trades memory for passes.
const OWASP_ARGON2ID_TABLE: readonly (readonly [memoryKiB: number, passes: number])[] = [
  [47104, 1],
  [19456, 2],
  [12288, 3],
  [9216, 4],
  [7168, 5],
];

/** True when the cost is at least one of OWASP's argon2id settings. */
export function meetsOwaspArgon2id(cost: Argon2Cost): boolean {
  return OWASP_ARGON2ID_TABLE.some(([memory, passes]) => cost.memoryCost >= memory && cost.timeCost >= passes);
}
