import { beforeAll, describe, expect, it } from 'vitest';
import { SessauthError } from '../src/errors/sessauth-error.js';
import { argon2PasswordHasher } from '../src/password/argon2.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import type { PasswordHasher } from '../src/users/password-hasher.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import type { UserPort } from '../src/users/user-port.js';

interface User {
  id: string;
  username: string;
}

/** The real argon2 hasher, with every call recorded. */
function countingHasher(): PasswordHasher & { hashed: string[]; verified: { hash: string; password: string }[] } {
  const hashed: string[] = [];
  const verified: { hash: string; password: string }[] = [];
  return {
    hashed,
    verified,
    async hash(password) {
      hashed.push(password);
      return argon2PasswordHasher.hash(password);
    },
    async verify(hash, password) {
      verified.push({ hash, password });
      return argon2PasswordHasher.verify(hash, password);
    },
  };
}

let aliceHash: string;
beforeAll(async () => {
  aliceHash = await argon2PasswordHasher.hash('wonderland');
});

function setup(limits = { maxUsernameLength: 254, maxPasswordLength: 1024 }) {
  const lookups: string[] = [];
  const users: UserPort<User> = {
    findById: async () => null,
    idOf: (user) => user.id,
    securityStamp: () => 'stamp',
    async findByUsername(username) {
      lookups.push(username);
      if (username !== 'alice') return null;
      return { user: { id: '1', username: 'alice' }, passwordHash: aliceHash };
    },
  };
  const hasher = countingHasher();
  // The bounds come from the engine's resolved settings, never from a second copy.
  const options = resolveOptions({ secretKey: 'k'.repeat(32), issuer: 'i', audience: 'a', ...limits });
  const authenticator = createPasswordAuthenticator({ users, hasher });
  const authenticate = (body: Record<string, unknown>) => authenticator(body, { options });
  return { authenticate, hasher, lookups };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SessauthError)) throw new Error(`expected a SessauthError, got ${String(error)}`);
  return error.code;
}

describe('createPasswordAuthenticator', () => {
  it('returns the user for the right password', async () => {
    const { authenticate, hasher } = setup();
    await expect(authenticate({ username: 'alice', password: 'wonderland' })).resolves.toEqual({ id: '1', username: 'alice' });
    expect(hasher.verified).toEqual([{ hash: aliceHash, password: 'wonderland' }]);
  });

  it('rejects a wrong password', async () => {
    const { authenticate } = setup();
    expect(await codeOf(authenticate({ username: 'alice', password: 'looking-glass' }))).toBe('invalid_credentials');
  });

  it('verifies an unknown user against one lazily made dummy hash', async () => {
    const { authenticate, hasher } = setup();
    expect(hasher.hashed).toHaveLength(0); // nothing hashed at creation
    expect(await codeOf(authenticate({ username: 'mallory', password: 'guess-1' }))).toBe('invalid_credentials');
    expect(hasher.hashed).toHaveLength(1);
    expect(hasher.verified).toHaveLength(1);
    const dummy = hasher.verified[0]!.hash;
    expect(dummy).toMatch(/^\$argon2id\$/);
    expect(dummy).not.toBe(aliceHash);
    expect(hasher.verified[0]!.password).toBe('guess-1');

    expect(await codeOf(authenticate({ username: 'trudy', password: 'guess-2' }))).toBe('invalid_credentials');
    expect(hasher.hashed).toHaveLength(1); // the dummy hash is made once
    expect(hasher.verified.map((call) => call.hash)).toEqual([dummy, dummy]);
  });

  it.each([
    [{ password: 'x' }],
    [{ username: 'alice' }],
    [{ username: 42, password: 'x' }],
    [{ username: 'alice', password: null }],
    [{ username: ['alice'], password: 'x' }],
    [{ username: 'alice', password: { toString: (): string => 'wonderland' } }],
  ])('rejects wrong types with invalid_request: %j', async (body) => {
    const { authenticate, hasher, lookups } = setup();
    expect(await codeOf(authenticate(body))).toBe('invalid_request');
    expect(lookups).toEqual([]);
    expect(hasher.verified).toEqual([]);
  });

  it('rejects an over-long password without hashing or lookup', async () => {
    const { authenticate, hasher, lookups } = setup({ maxUsernameLength: 254, maxPasswordLength: 1024 });
    expect(await codeOf(authenticate({ username: 'alice', password: 'x'.repeat(1025) }))).toBe('invalid_credentials');
    expect(hasher.hashed).toEqual([]);
    expect(hasher.verified).toEqual([]);
    expect(lookups).toEqual([]);
  });

  it('accepts a password exactly at the limit', async () => {
    const { authenticate } = setup({ maxUsernameLength: 254, maxPasswordLength: 10 });
    await expect(authenticate({ username: 'alice', password: 'wonderland' })).resolves.toMatchObject({ id: '1' });
  });

  it('rejects an over-long username without hashing or lookup', async () => {
    const { authenticate, hasher, lookups } = setup({ maxUsernameLength: 5, maxPasswordLength: 1024 });
    expect(await codeOf(authenticate({ username: 'alice!', password: 'wonderland' }))).toBe('invalid_credentials');
    expect(lookups).toEqual([]);
    expect(hasher.verified).toEqual([]);
  });

  it.each([['ali\u0000ce'], ['alice\ud800'], ['\udc00alice']])(
    'rejects an unstorable username %j without touching the user port',
    async (username) => {
      const { authenticate, lookups } = setup();
      expect(await codeOf(authenticate({ username, password: 'wonderland' }))).toBe('invalid_credentials');
      expect(lookups).toEqual([]);
    },
  );

  it('accepts a username with a valid surrogate pair', async () => {
    const { authenticate, lookups } = setup();
    expect(await codeOf(authenticate({ username: 'ali😀ce', password: 'x' }))).toBe('invalid_credentials');
    expect(lookups).toEqual(['ali😀ce']);
  });

  it('throws at creation when the user port cannot find by username', () => {
    const users: UserPort<User> = { findById: async () => null, idOf: (u) => u.id, securityStamp: () => 's' };
    expect(() => createPasswordAuthenticator({ users, hasher: argon2PasswordHasher })).toThrow(/findByUsername/);
  });
});
