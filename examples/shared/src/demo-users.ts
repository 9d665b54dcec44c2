import { randomUUID } from 'node:crypto';
import type { PasswordHasher, UserPort } from '@sessauth/core';

export interface DemoUser {
  readonly id: string;
  readonly username: string;
  passwordHash: string;
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
    for (const entry of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
      const colon = entry.indexOf(':');
      if (colon <= 0) throw new Error('SESSAUTH_DEMO_USERS: expected "name:password,name:password"');
      const username = entry.slice(0, colon);
      await directory.add(username, entry.slice(colon + 1), admins.includes(username));
    }
    return directory;
  }

  async add(username: string, password: string, isAdmin: boolean): Promise<DemoUser> {
    // A stable id per username keeps sessions meaningful across restarts on a persistent store.
    const user: DemoUser = { id: `user-${username}`, username, passwordHash: await this.hasher.hash(password), stamp: randomUUID(), isAdmin };
    this.byId.set(user.id, user);
    this.byName.set(username, user);
    return user;
  }

  async changePassword(user: DemoUser, newPassword: string): Promise<void> {
    user.passwordHash = await this.hasher.hash(newPassword);
    user.stamp = randomUUID();
  }

  async findById(id: string): Promise<DemoUser | null> {
    return this.byId.get(id) ?? null;
  }

  idOf(user: DemoUser): string {
    return user.id;
  }

  securityStamp(user: DemoUser): string {
    return user.stamp;
  }

  async findByUsername(username: string): Promise<{ user: DemoUser; passwordHash: string } | null> {
    const user = this.byName.get(username);
    return user ? { user, passwordHash: user.passwordHash } : null;
  }
}
