import { randomBytes } from 'node:crypto';
import type { PasswordHasher, UserPort } from '@sessauth/core';
import { eq } from 'drizzle-orm';
import type { AppDatabase } from './db/open-database.js';
import { type User, users } from './db/schema.js';

/**
 * The app's users in its own table, seen by sessauth through `UserPort`. A host writes this for
 * its own user model; nothing here is sessauth's schema.
 */
export class DrizzleUsers implements UserPort<User> {
  constructor(
    private readonly db: AppDatabase,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Seeds "name:password,name:password" once: an existing user keeps the password it has. */
  async seed(spec: string, admins: readonly string[]): Promise<void> {
    for (const entry of spec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const colon = entry.indexOf(':');
      if (colon <= 0) throw new Error('SESSAUTH_DEMO_USERS: expected "name:password,name:password"');
      const username = entry.slice(0, colon);
      const passwordHash = await this.hasher.hash(entry.slice(colon + 1));
      this.db
        .insert(users)
        .values({ id: `user-${username}`, username, passwordHash, securityStamp: newStamp(), isAdmin: admins.includes(username) })
        .onConflictDoNothing()
        .run();
    }
  }

  /** A new password and a new stamp, in one statement: the old sessions cannot refresh anymore. */
  async changePassword(user: User, newPassword: string): Promise<void> {
    const passwordHash = await this.hasher.hash(newPassword);
    this.db.update(users).set({ passwordHash, securityStamp: newStamp() }).where(eq(users.id, user.id)).run();
  }

  async findById(id: string): Promise<User | null> {
    return this.db.select().from(users).where(eq(users.id, id)).get() ?? null;
  }

  async findByUsername(username: string): Promise<{ user: User; passwordHash: string } | null> {
    const user = this.db.select().from(users).where(eq(users.username, username)).get();
    return user === undefined ? null : { user, passwordHash: user.passwordHash };
  }

  idOf = (user: User): string => user.id;
  usernameOf = (user: User): string => user.username;
  securityStamp = (user: User): string => user.securityStamp;
}

const newStamp = (): string => randomBytes(16).toString('base64url');
