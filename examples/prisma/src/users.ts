import { randomBytes } from 'node:crypto';
import type { PasswordHasher, UserPort } from '@sessauth/core';
import type { PrismaClient, User } from './generated/prisma/client.js';

/**
 * The app's users in its own model, seen by sessauth through `UserPort`. A host writes this for
 * its own user model; nothing here is sessauth's schema.
 */
export class PrismaUsers implements UserPort<User> {
  constructor(
    private readonly prisma: PrismaClient,
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
      await this.prisma.user.upsert({
        where: { username },
        create: { id: `user-${username}`, username, passwordHash, securityStamp: newStamp(), isAdmin: admins.includes(username) },
        update: {},
      });
    }
  }

  /** A new password and a new stamp, in one statement: the old sessions cannot refresh anymore. */
  async changePassword(user: User, newPassword: string): Promise<void> {
    await this.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await this.hasher.hash(newPassword), securityStamp: newStamp() } });
  }

  findById(id: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { id } });
  }

  async findByUsername(username: string): Promise<{ user: User; passwordHash: string } | null> {
    const user = await this.prisma.user.findUnique({ where: { username } });
    return user === null ? null : { user, passwordHash: user.passwordHash };
  }

  idOf = (user: User): string => user.id;
  usernameOf = (user: User): string => user.username;
  securityStamp = (user: User): string => user.securityStamp;
}

const newStamp = (): string => randomBytes(16).toString('base64url');
