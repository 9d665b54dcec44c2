import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { consoleLogger, type Logger } from '../log/logger.js';
import { availableCpus, limitConcurrency } from './concurrency-limit.js';
import type { PasswordHasher } from './password-hasher.js';

export type { PasswordHasher } from './password-hasher.js';

// `Algorithm` is an ambient const enum, which isolatedModules cannot read; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (about 20 ms per hash here). */
export const ARGON2_OPTIONS: Readonly<Options> = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/** The most a stored hash may ask of a verification: beyond it the hash is refused unverified. */
export interface Argon2CostCeiling {
  /** KiB. @default 262144 (256 MiB) */
  readonly memoryCost?: number;
  /** Passes. @default 16 */
  readonly timeCost?: number;
  /** Lanes. @default 8 */
  readonly parallelism?: number;
}

export interface Argon2HasherOptions {
  /** Parameters of new hashes. @default ARGON2_OPTIONS */
  readonly hashOptions?: Readonly<Options>;
  readonly ceiling?: Argon2CostCeiling;
  /** Where a refused hash is reported (never with the hash or the password). @default consoleLogger */
  readonly logger?: Logger;
  /**
   * At most this many hashes and verifications run at once; the rest wait their turn.
   * argon2 runs on libuv's thread pool (4 threads by default): without a bound, a burst
   * of logins puts four threads of argon2 on every core and the event loop, which serves
   * every guarded request, gets a fraction of one. Bounded by the CPU count, logins keep
   * their throughput (argon2 is CPU-bound) and the guarded routes keep being served.
   * @default the CPUs the process may use (`os.availableParallelism()`)
   */
  readonly maxConcurrent?: number;
  /**
   * At most this many verifications wait for a place; one more is refused at once with
   * 429 `login_busy` (and `Retry-After`), so a flood of logins answers fast instead of
   * making every later login, real users' included, wait behind it.
   * @default 16 per place (`maxConcurrent`), about 0.3 s of work at OWASP's parameters
   */
  readonly maxQueued?: number;
  /** A verification that waited this long for a place is refused (429 `login_busy`) instead of run. @default 2000 */
  readonly maxQueueWaitMs?: number;
}

// The cost parameters of a PHC string: $argon2id$v=19$m=19456,t=2,p=1$salt$hash
const PHC_COSTS = /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$/;

/**
 * Argon2id with @node-rs/argon2. Verification reads the parameters from the stored
 * hash, so hashes made with older parameters keep working, up to a ceiling: a stored
 * hash that asks for more memory, passes or lanes (a tampered row, a hash imported
 * from elsewhere) is refused without running, a failed login that is logged, instead
 * of seconds of CPU per attempt.
 */
export function createArgon2PasswordHasher(options: Argon2HasherOptions = {}): PasswordHasher {
  const hashOptions = options.hashOptions ?? ARGON2_OPTIONS;
  const ceiling = { memoryCost: 262_144, timeCost: 16, parallelism: 8, ...options.ceiling };
  const logger = options.logger ?? consoleLogger;
  const places = options.maxConcurrent ?? availableCpus();
  const inTurn = limitConcurrency(places, {
    maxWaiting: options.maxQueued ?? 16 * places,
    maxWaitMs: options.maxQueueWaitMs ?? 2000,
  });
  return {
    hash: (password) => inTurn(() => hash(password, hashOptions)),
    async verify(storedHash, password, checkOptions = {}) {
      const costs = PHC_COSTS.exec(storedHash);
      if (costs !== null) {
        const [memoryCost, timeCost, parallelism] = costs.slice(1).map(Number) as [number, number, number];
        if (memoryCost > ceiling.memoryCost || timeCost > ceiling.timeCost || parallelism > ceiling.parallelism) {
          logger.warn('password_hash_over_cost_ceiling', { memoryCost, timeCost, parallelism });
          return false;
        }
      }
      // Refused (busy) or dropped (the client left) before it ran: an answer, passed on.
      const checked = inTurn(() => verify(storedHash, password).catch(() => false), checkOptions);
      // A malformed or unsupported hash is a failed login, not a server error (the catch above).
      return checked;
    },
  };
}

/** The default hasher: OWASP's parameters, the default ceiling, logs to the console. */
export const argon2PasswordHasher: PasswordHasher = createArgon2PasswordHasher();
