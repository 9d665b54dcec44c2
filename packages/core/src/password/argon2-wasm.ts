import { argon2id, argon2Verify, setWASMModules } from 'argon2-wasm-edge';
import { consoleLogger, type Logger } from '../log/logger.js';
import { meetsOwaspArgon2id, OWASP_ARGON2ID, overCeiling, type Argon2Cost, type Argon2CostCeiling } from './argon2-cost.js';
import { limitConcurrency, type TurnTiming } from './concurrency-limit.js';
import type { PasswordHasher } from '../users/password-hasher.js';

export type { PasswordHasher, PasswordHasherDescription } from '../users/password-hasher.js';
export type { TurnTiming } from './concurrency-limit.js';
export type { Argon2Cost, Argon2CostCeiling } from './argon2-cost.js';

/** The two compiled modules of argon2-wasm-edge (`wasm/argon2.wasm`, `wasm/blake2b.wasm`). */
export interface Argon2WasmModules {
  readonly argon2: WebAssembly.Module;
  readonly blake2b: WebAssembly.Module;
}

export interface WasmArgon2HasherOptions {
  /**
   * The compiled modules, where the runtime refuses to compile WebAssembly from bytes (workerd:
   * the worker imports the default exports of `argon2-wasm-edge/wasm/argon2.wasm` and `.../blake2b.wasm`,
   * which Wrangler hands over compiled). Elsewhere (Deno, Bun, Node) leave it out: the package compiles its own.
   */
  readonly modules?: Argon2WasmModules;
  /** Parameters of new hashes. @default OWASP's baseline: 19456 KiB, 2 passes, 1 lane */
  readonly hashOptions?: Partial<Argon2Cost>;
  readonly ceiling?: Argon2CostCeiling;
  /** Where a refused hash is reported (never with the hash or the password). @default consoleLogger */
  readonly logger?: Logger;
  /**
   * At most this many hashes and verifications run at once. WebAssembly runs on the calling
   * thread, so more than one at a time only interleaves them and delays every other request.
   * @default 1
   */
  readonly maxConcurrent?: number;
  /**
   * At most this many verifications wait for their turn; one more is refused at once with 429
   * `login_busy` and `Retry-After`, so a login flood answers fast instead of queueing real users behind it.
   * @default 8
   */
  readonly maxQueued?: number;
  /** A verification that waited this long for its turn is refused (429 `login_busy`) instead of run. @default 2000 */
  readonly maxQueueWaitMs?: number;
  /**
   * Told after each hash or verification that ran how long it waited for a place and how long
   * it ran, in milliseconds (`recordHasherTurn` of `@sessauth/opentelemetry` records both).
   */
  readonly onTurn?: (turn: TurnTiming) => void;
}

/**
 * Argon2id in WebAssembly (argon2-wasm-edge, MIT, hash-wasm's edge build), for runtimes
 * where the native `@sessauth/core/argon2` does not load. The same PHC strings: a hash made
 * by either verifies on the other. It runs on the calling thread (several times the native
 * time, see bench/results/hashers.md); the stored hash's own parameters are read back, up to the ceiling.
 */
export function createWasmArgon2PasswordHasher(options: WasmArgon2HasherOptions = {}): PasswordHasher {
  const cost: Argon2Cost = { ...OWASP_ARGON2ID, ...options.hashOptions };
  const logger = options.logger ?? consoleLogger;
  const { modules } = options;
  const inTurn = limitConcurrency(options.maxConcurrent ?? 1, {
    maxWaiting: options.maxQueued ?? 8,
    maxWaitMs: options.maxQueueWaitMs ?? 2000,
    onTurn: options.onTurn,
  });
  let ready: Promise<void> | undefined;
  // Handed over on first use, not at import: module scope runs at a worker's start-up.
  const prepared = (): Promise<void> =>
    (ready ??= modules === undefined ? Promise.resolve() : setWASMModules({ argon2WASM: modules.argon2, blake2bWASM: modules.blake2b }));
  return {
    hash: (password) =>
      inTurn(async () => {
        await prepared();
        const salt = crypto.getRandomValues(new Uint8Array(16));
        const { memoryCost: memorySize, timeCost: iterations, parallelism } = cost;
        return argon2id({ password, salt, memorySize, iterations, parallelism, hashLength: 32, outputType: 'encoded' });
      }),
    async verify(storedHash, password, checkOptions = {}) {
      if (overCeiling(storedHash, options.ceiling, logger)) return false;
      // Refused (busy) or dropped (the client left) before it ran: an answer, passed on.
      return inTurn(async () => {
        await prepared();
        try {
          return await argon2Verify({ password, hash: storedHash });
        } catch {
          // A malformed or unsupported hash is a failed login, not a server error.
          return false;
        }
      }, checkOptions);
    },
    describe: () => ({
      algorithm: 'argon2id',
      implementation: 'wasm (argon2-wasm-edge)',
      cost: { ...cost },
      meetsOwaspMinimum: meetsOwaspArgon2id(cost),
    }),
  };
}
