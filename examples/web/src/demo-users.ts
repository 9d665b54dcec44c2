import type { PasswordHasher, SetPassword, UserPort } from '@sessauth/core';

export interface WebDemoUser {
  readonly id: string;
  readonly username: string;
  passwordHash: string;
  /** Changes with the password, so every session dies with the old one. */
  stamp: string;
}

/**
 * The examples' users, in memory, seeded from `SESSAUTH_DEMO_USERS` ("alice:pw1,bob:pw2").
 * A real host keeps users in its own database (D1, Postgres...) and implements `UserPort` over it.
 */
export class WebDemoUsers implements UserPort<WebDemoUser> {
  private readonly byName = new Map<string, WebDemoUser>();

  private constructor(private readonly hasher: PasswordHasher) {}

  static async seed(hasher: PasswordHasher, spec: string): Promise<WebDemoUsers> {
    const users = new WebDemoUsers(hasher);
    for (const entry of spec.split(',').map((text) => text.trim())) {
      const colon = entry.indexOf(':');
      if (colon <= 0) throw new Error('SESSAUTH_DEMO_USERS: expected "name:password,name:password"');
      const username = entry.slice(0, colon);
      // A stable id per username keeps sessions meaningful across restarts on a durable store.
      users.byName.set(username, {
        id: `user-${username}`,
        username,
        passwordHash: await hasher.hash(entry.slice(colon + 1)),
        stamp: crypto.randomUUID(),
      });
    }
    return users;
  }

  async findById(id: string): Promise<WebDemoUser | null> {
    return [...this.byName.values()].find((user) => user.id === id) ?? null;
  }

  async findByUsername(username: string): Promise<{ user: WebDemoUser; passwordHash: string } | null> {
    const user = this.byName.get(username);
    return user === undefined ? null : { user, passwordHash: user.passwordHash };
  }

  idOf = (user: WebDemoUser): string => user.id;
  usernameOf = (user: WebDemoUser): string => user.username;
  securityStamp = (user: WebDemoUser): string => user.stamp;

  /** `POST /me/password`'s storage: the new hash and a new stamp. */
  setPassword: SetPassword<WebDemoUser> = async (user, password) => {
    user.passwordHash = await this.hasher.hash(password);
    user.stamp = crypto.randomUUID();
  };
}
