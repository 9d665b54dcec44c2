import { createPasswordAuthenticator, createSessauth, type Sessauth } from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { DemoUserDirectory, type DemoUser } from './demo-users.js';
import { exampleConfigFromEnv, type ExampleConfig } from './env-config.js';
import { geolocationFromEnv } from './geolocation-from-env.js';
import { storesFromUrl } from './store-from-url.js';

export interface ExampleApp {
  readonly config: ExampleConfig;
  readonly auth: Sessauth<DemoUser>;
  readonly users: DemoUserDirectory;
  close(): Promise<void>;
}

/** Everything an example server needs, from the environment; the framework part stays in each example. */
export async function createExampleApp(env: NodeJS.ProcessEnv): Promise<ExampleApp> {
  const config = exampleConfigFromEnv(env);
  const stores = await storesFromUrl(config.storeUrl);
  const users = await DemoUserDirectory.seed(argon2PasswordHasher, config.demoUsers, config.adminUsers);
  const auth = await createSessauth<DemoUser>({
    options: config.options,
    store: stores.sessionStore,
    rateLimitStore: stores.rateLimitStore,
    users,
    authenticator: createPasswordAuthenticator({
      users,
      hasher: argon2PasswordHasher,
      maxUsernameLength: 254,
      maxPasswordLength: 1024,
    }),
    isAdmin: (user) => user.isAdmin,
    geolocation: await geolocationFromEnv(env),
  });
  return { config, auth, users, close: () => stores.close() };
}

/** The body of `POST /me/password`: `{"new_password": "..."}` with 1..1024 characters. */
export function newPasswordOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const value = (body as Record<string, unknown>).new_password;
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 ? value : null;
}
