import { createHash } from 'node:crypto';
import type { PasswordHasher, UserPort } from '@sessauth/core';

export interface DemoUser {
  readonly id: string;
  readonly username: string;
  passwordHash: string;
  /** How many times the password was changed since the user was seeded. */
  passwordGeneration: number;
  /** Changes with the password, so every session dies with the old one. */
  stamp: string;
  readonly isAdmin: boolean;
}

/**
 * The examples' user table, in memory: seeded from `SESSAUTH_DEMO_USERS`
 * ("alice:pw1,bob:pw2"), admins from `SESSAUTH_ADMIN_USERS` ("alice").
 * A real host keeps users in its own database and implements `UserPort` over it.
 */
export class DemoUserDirectory implements UserPort<DemoUser> {
  private readonly byId = new Map<string, DemoUser>();
  private readonly byName = new Map<string, DemoUser>();

  constructor(private readonly hasher: PasswordHasher) {}

  static async seed(hasher: PasswordHasher, spec: string, admins: readonly string[]): Promise<DemoUserDirectory> {
    const directory = new DemoUserDirectory(hasher);
    for (const entry of spec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const colon = entry.indexOf(':');
      if (colon <= 0) throw new Error('SESSAUTH_DEMO_USERS: expected "name:password,name:password"');
      const username = entry.slice(0, colon);
      await directory.add(username, entry.slice(colon + 1), admins.includes(username));
    }
    return directory;
  }

  async add(username: string, password: string, isAdmin: boolean): Promise<DemoUser> {
    // A stable id per username keeps sessions meaningful across restarts on a persistent store.
    const id = `user-${username}`;
    const passwordHash = await this.hasher.hash(password);
    const user: DemoUser = { id, username, passwordHash, passwordGeneration: 0, stamp: stampOf(id, 0), isAdmin };
    this.byId.set(user.id, user);
    this.byName.set(username, user);
    return user;
  }

  async changePassword(user: DemoUser, newPassword: string): Promise<void> {
    user.passwordHash = await this.hasher.hash(newPassword);
    user.passwordGeneration += 1;
    user.stamp = stampOf(user.id, user.passwordGeneration);
  }

  async findById(id: string): Promise<DemoUser | null> {
    return this.byId.get(id) ?? null;
  }

  idOf(user: DemoUser): string {
    return user.id;
  }

  /** The login name, for `auth.changePassword`'s re-check of the current password. */
  usernameOf(user: DemoUser): string {
    return user.username;
  }

  securityStamp(user: DemoUser): string {
    return user.stamp;
  }

  async findByUsername(username: string): Promise<{ user: DemoUser; passwordHash: string } | null> {
    const user = this.byName.get(username);
    return user ? { user, passwordHash: user.passwordHash } : null;
  }
}

/**
 * The security stamp, derived from the stored user as a real host would (from a
 * column that changes with the password), not drawn at random per process: two
 * example processes seeded alike then agree, so a session made by one is valid on
 * the other. (The argon2 hash cannot serve: its salt differs in every process.)
 * The password itself is left out, so the stamp is no fast-hash oracle for it.
 * A password change is seen only by the process that made it: the demo users are
 * in memory, one table per process.
 */
function stampOf(userId: string, passwordGeneration: number): string {
  return createHash('sha256').update(`sessauth-demo-stamp\u0000${userId}\u0000${passwordGeneration}`).digest('base64url');
}
