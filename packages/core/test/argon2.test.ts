import { describe, expect, it } from 'vitest';
import { argon2PasswordHasher, createArgon2PasswordHasher } from '../src/password/argon2.js';

describe('argon2PasswordHasher', () => {
  it('hashes with argon2id m=19456 t=2 p=1 and a fresh salt', async () => {
    const first = await argon2PasswordHasher.hash('correct horse');
    const second = await argon2PasswordHasher.hash('correct horse');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await argon2PasswordHasher.hash('correct horse');
    await expect(argon2PasswordHasher.verify(hash, 'correct horse')).resolves.toBe(true);
    await expect(argon2PasswordHasher.verify(hash, 'correct horsf')).resolves.toBe(false);
    await expect(argon2PasswordHasher.verify(hash, '')).resolves.toBe(false);
  });

  it('handles non-ASCII passwords', async () => {
    const hash = await argon2PasswordHasher.hash('pässwörd 🔑');
    await expect(argon2PasswordHasher.verify(hash, 'pässwörd 🔑')).resolves.toBe(true);
    await expect(argon2PasswordHasher.verify(hash, 'passwort 🔑')).resolves.toBe(false);
  });

  it.each([
    [''],
    ['not a hash'],
    ['$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$'],
    ['$argon2id$v=19$m=abc,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo'],
    ['pbkdf2_sha256$600000$salt$hash'],
    ['$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234'],
  ])('returns false (never throws) for the malformed hash %j', async (hash) => {
    await expect(argon2PasswordHasher.verify(hash, 'anything')).resolves.toBe(false);
  });
});

describe('createArgon2PasswordHasher: the cost ceiling', () => {
  const events: Array<{ event: string; fields: unknown }> = [];
  const logger = {
    warn: (event: string, fields?: unknown) => events.push({ event, fields }),
    error: (event: string, fields?: unknown) => events.push({ event, fields }),
  };
  const hasher = createArgon2PasswordHasher({ ceiling: { memoryCost: 65_536, timeCost: 4, parallelism: 2 }, logger });

  it.each([
    ['memory', '$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo'],
    ['passes', '$argon2id$v=19$m=19456,t=1000,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo'],
    ['lanes', '$argon2id$v=19$m=19456,t=2,p=16$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNo'],
  ])('refuses a stored hash over the ceiling (%s) without running it, and logs it without the hash', async (_, stored) => {
    events.length = 0;
    await expect(hasher.verify(stored, 'whatever')).resolves.toBe(false);
    expect(events.map((e) => e.event)).toEqual(['password_hash_over_cost_ceiling']);
    expect(JSON.stringify(events)).not.toContain('c2FsdHNhbHRzYWx0');
  });

  it('verifies hashes within the ceiling, made with the default parameters', async () => {
    events.length = 0;
    const stored = await hasher.hash('correct horse');
    await expect(hasher.verify(stored, 'correct horse')).resolves.toBe(true);
    expect(events).toEqual([]);
  });
});

describe('createArgon2PasswordHasher: maxConcurrent', () => {
  it('queues work beyond the bound and still answers every call correctly', async () => {
    const hasher = createArgon2PasswordHasher({ maxConcurrent: 1 });
    const hash = await hasher.hash('correct horse');
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => hasher.verify(hash, i % 2 === 0 ? 'correct horse' : 'wrong horse')));
    expect(answers).toEqual([true, false, true, false, true, false]);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => createArgon2PasswordHasher({ maxConcurrent: 0 })).toThrow(RangeError);
  });
});
