import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
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

/**
 * Argon2id with @node-rs/argon2. Verification reads the parameters from the stored
 * hash, so hashes made with older parameters keep working.
 */
export const argon2PasswordHasher: PasswordHasher = {
  hash: (password) => hash(password, ARGON2_OPTIONS),
  async verify(storedHash, password) {
    try {
      return await verify(storedHash, password);
    } catch {
      // A malformed or unsupported hash is a failed login, not a server error.
      return false;
    }
  },
};
