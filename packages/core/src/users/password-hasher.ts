/**
 * Turns passwords into stored hashes and checks them. The core's default is
 * `argon2PasswordHasher` from `@sessauth/core/argon2` (a native module, hence
 * its own entry point); `@sessauth/core/argon2-wasm` is the same algorithm and the
 * same PHC strings for runtimes where a native module does not load (workerd, Deno
 * Deploy); any other implementation can be passed instead.
 */
export interface PasswordHasher {
  /** A self-describing hash string (for example PHC `$argon2id$...`). */
  hash(password: string): Promise<string>;
  /**
   * True when `password` matches `hash`. A malformed hash is false. May reject with
   * `SessauthError('login_busy')` (429) when it cannot take more work now, and with
   * `RequestAbortedError` when `options.signal` aborted before the check ran (the
   * client went away): both are answers, not faults.
   */
  verify(hash: string, password: string, options?: PasswordCheckOptions): Promise<boolean>;
  /**
   * What new hashes cost, so `createSessauth` can say at start-up which hasher it uses
   * and refuse one below OWASP's minimum. A hasher without it is reported as `custom`.
   */
  readonly describe?: () => PasswordHasherDescription;
}

/** Per check: the login request's signal, aborted when its client goes away. */
export interface PasswordCheckOptions {
  readonly signal?: AbortSignal | undefined;
}

/** A hasher's algorithm, implementation and cost of new hashes. */
export interface PasswordHasherDescription {
  /** For example `argon2id`. */
  readonly algorithm: string;
  /** For example `@node-rs/argon2` or `wasm`. */
  readonly implementation: string;
  /** The cost parameters of new hashes, by name (`memoryCost`, `timeCost`, `parallelism` for argon2). */
  readonly cost: Readonly<Record<string, number>>;
  /** Whether that cost is at least OWASP's minimum for the algorithm. */
  readonly meetsOwaspMinimum: boolean;
}
