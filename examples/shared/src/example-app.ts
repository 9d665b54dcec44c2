import { createPasswordAuthenticator, createSessauth, type Sessauth, type SetPassword } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { DemoUserDirectory, type DemoUser } from './demo-users.js';
import { exampleConfigFromEnv, type ExampleConfig } from './env-config.js';
import { geolocationFromEnv } from './geolocation-from-env.js';
import { storesFromUrl } from './store-from-url.js';

export interface ExampleApp {
  readonly config: ExampleConfig;
  readonly auth: Sessauth<DemoUser>;
  readonly users: DemoUserDirectory;
  /**
   * Stores a new password (a new hash, so a new security stamp). `POST /me/password`
   * hands it to `auth.changePassword`, which first re-checks the current password
   * under the login throttle and afterwards ends every session of the user.
   */
  readonly setPassword: SetPassword<DemoUser>;
  close(): Promise<void>;
}

/** Everything an example server needs, from the environment; the framework part stays in each example. */
export async function createExampleApp(env: NodeJS.ProcessEnv): Promise<ExampleApp> {
  const config = exampleConfigFromEnv(env);
  const stores = await storesFromUrl(config.storeUrl, { activity: config.options.sessionActivity === true });
  const users = await DemoUserDirectory.seed(argon2PasswordHasher, config.demoUsers?.spec ?? '', config.adminUsers);
  const auth = await createSessauth<DemoUser>({
    options: config.options,
    store: stores.sessionStore,
    rateLimitStore: stores.rateLimitStore,
    users,
    // The username and password bounds come from the resolved options (JWT_MAX_*_LENGTH).
    authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
    admin: { isAdmin: (user) => user.isAdmin },
    geolocation: await geolocationFromEnv(env),
  });
  const setPassword: SetPassword<DemoUser> = (user, newPassword) => users.changePassword(user, newPassword);
  return { config, auth, users, setPassword, close: () => stores.close() };
}
