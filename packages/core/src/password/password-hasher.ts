/**
 * Turns passwords into stored hashes and checks them. The core's default is
 * `argon2PasswordHasher` from `@sessauth/core/argon2` (a native module, hence
 * its own entry point); any other implementation can be passed instead.
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
}

/** Per check: the login request's signal, aborted when its client goes away. */
export interface PasswordCheckOptions {
  readonly signal?: AbortSignal | undefined;
}
