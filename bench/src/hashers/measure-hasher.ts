import type { PasswordHasher } from '@sessauth/core';

/** Milliseconds per hash and per verification, each call timed on its own. */
export interface HasherTimes {
  readonly hashMs: number[];
  readonly verifyMs: number[];
}

/**
 * Times `rounds` hashes and `rounds` verifications one after another (one core, no
 * concurrency: the latency a login pays), after two warm-up calls that load the module.
 * Runtime-neutral: Node, Bun and Deno run it as it is.
 */
export async function measureHasher(hasher: PasswordHasher, rounds: number): Promise<HasherTimes> {
  const password = 'correct horse battery staple';
  const stored = await hasher.hash(password);
  await hasher.verify(stored, password);
  const hashMs: number[] = [];
  const verifyMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    await hasher.hash(password);
    hashMs.push(performance.now() - started);
    started = performance.now();
    if (!(await hasher.verify(stored, password))) throw new Error('the hasher refused its own hash');
    verifyMs.push(performance.now() - started);
  }
  return { hashMs, verifyMs };
}
