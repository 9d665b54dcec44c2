import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { consoleLogger, type Logger } from '../log/logger.js';
import { meetsOwaspArgon2id, overCeiling, type Argon2CostCeiling } from './argon2-cost.js';
import { availableCpus, limitConcurrency, type TurnTiming } from './concurrency-limit.js';
import type { PasswordHasher } from '../users/password-hasher.js';

export type { PasswordHasher, PasswordHasherDescription } from '../users/password-hasher.js';
export type { TurnTiming } from './concurrency-limit.js';
export type { Argon2CostCeiling } from './argon2-cost.js';

// `Algorithm` is an ambient const enum, which isolatedModules cannot read; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (about 20 ms per hash here). */
export const ARGON2_OPTIONS: Readonly<Options> = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

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
  /**
   * Told after each hash or verification that ran how long it waited for a place and how long
   * it ran, in milliseconds (`recordHasherTurn` of `@sessauth/opentelemetry` records both).
   */
  readonly onTurn?: (turn: TurnTiming) => void;
}

/**
 * Argon2id with @node-rs/argon2. Verification reads the parameters from the stored
 * hash, so hashes made with older parameters keep working, up to a ceiling: a stored
 * hash that asks for more memory, passes or lanes (a tampered row, a hash imported
 * from elsewhere) is refused without running, a failed login that is logged, instead
 * of seconds of CPU per attempt.
 */
export function createArgon2PasswordHasher(options: Argon2HasherOptions = {}): PasswordHasher {
  const hashOptions = options.hashOptions ?? ARGON2_OPTIONS;
  const logger = options.logger ?? consoleLogger;
  const places = options.maxConcurrent ?? availableCpus();
  const inTurn = limitConcurrency(places, {
    maxWaiting: options.maxQueued ?? 16 * places,
    maxWaitMs: options.maxQueueWaitMs ?? 2000,
    onTurn: options.onTurn,
  });
  return {
    hash: (password) => inTurn(() => hash(password, hashOptions)),
    async verify(storedHash, password, checkOptions = {}) {
      if (overCeiling(storedHash, options.ceiling, logger)) return false;
      // Refused (busy) or dropped (the client left) before it ran: an answer, passed on. A
      // malformed or unsupported hash is a failed login, not a server error (the catch).
      return inTurn(() => verify(storedHash, password).catch(() => false), checkOptions);
    },
    describe: () => {
      // @node-rs/argon2's own defaults when a parameter is left out: argon2id, 19456 KiB, 2 passes, 1 lane.
      const algorithm = ['argon2d', 'argon2i', 'argon2id'][hashOptions.algorithm ?? ARGON2ID] ?? 'argon2';
      const cost = { memoryCost: hashOptions.memoryCost ?? 19456, timeCost: hashOptions.timeCost ?? 2, parallelism: hashOptions.parallelism ?? 1 };
      return { algorithm, implementation: '@node-rs/argon2', cost, meetsOwaspMinimum: algorithm === 'argon2id' && meetsOwaspArgon2id(cost) };
    },
  };
}

/** The default hasher: OWASP's parameters, the default ceiling, logs to the console. */
export const argon2PasswordHasher: PasswordHasher = createArgon2PasswordHasher();
