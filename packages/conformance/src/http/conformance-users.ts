import type { UserPort } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';

/** The host's user in the conformance app; tests flip `active` and `stamp` in place. */
export interface ConformanceUser {
  id: string;
  username: string;
  passwordHash: string;
  stamp: string;
  active: boolean;
}

export type UserName = 'alice' | 'bob';

/** The users of one test app: fresh random ids and stamps each time, hashes shared. */
export interface UserTable {
  readonly alice: ConformanceUser;
  readonly bob: ConformanceUser;
  readonly passwords: Readonly<Record<UserName, string>>;
}

function randomText(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

const passwords: Record<UserName, string> = { alice: `alice-pw-${randomText(9)}`, bob: `bob-pw-${randomText(9)}` };
let hashes: Promise<Record<UserName, string>> | undefined;

/** argon2 costs ~20 ms a hash: compute the two once per process. */
function hashesOnce(): Promise<Record<UserName, string>> {
  hashes ??= Promise.all([argon2PasswordHasher.hash(passwords.alice), argon2PasswordHasher.hash(passwords.bob)]).then(([alice, bob]) => ({
    alice,
    bob,
  }));
  return hashes;
}

export async function makeUserTable(): Promise<UserTable> {
  const hash = await hashesOnce();
  const user = (username: UserName): ConformanceUser => ({
    id: `${username}-${randomText(12)}`,
    username,
    passwordHash: hash[username],
    stamp: randomText(12),
    active: true,
  });
  return { alice: user('alice'), bob: user('bob'), passwords };
}

/** `POST /me/password`'s storage: a new hash and, with it, a new security stamp. */
export async function setPasswordIn(user: ConformanceUser, newPassword: string): Promise<void> {
  user.passwordHash = await argon2PasswordHasher.hash(newPassword);
  user.stamp = randomText(12);
}

/** The host's user port over the table; an inactive user is not found, as a host would do. */
export function userPortOver(table: UserTable): UserPort<ConformanceUser> {
  const all = () => [table.alice, table.bob];
  return {
    findById: async (id) => all().find((user) => user.id === id && user.active) ?? null,
    idOf: (user) => user.id,
    usernameOf: (user) => user.username,
    securityStamp: (user) => user.stamp,
    findByUsername: async (username) => {
      const user = all().find((candidate) => candidate.username === username && candidate.active);
      return user === undefined ? null : { user, passwordHash: user.passwordHash };
    },
  };
}
