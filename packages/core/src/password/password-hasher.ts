/**
 * Turns passwords into stored hashes and checks them. The core's default is
 * `argon2PasswordHasher` from `@sessauth/core/argon2` (a native module, hence
 * its own entry point); any other implementation can be passed instead.
 */
export interface PasswordHasher {
  /** A self-describing hash string (for example PHC `$argon2id$...`). */
  hash(password: string): Promise<string>;
  /** True when `password` matches `hash`. Never throws: a malformed hash is false. */
  verify(hash: string, password: string): Promise<boolean>;
}
