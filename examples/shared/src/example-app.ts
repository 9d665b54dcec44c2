import { SessauthError, createPasswordAuthenticator, createSessauth, type Sessauth } from '@sessauth/core';
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
   * `POST /me/password` with `{"new_password"}`: changes the password (and so the
   * security stamp) and ends every session of the user. Bad input: 400 `invalid_request`.
   */
  changePassword(user: DemoUser, body: unknown): Promise<void>;
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
  const changePassword = async (user: DemoUser, body: unknown): Promise<void> => {
    const newPassword = newPasswordOf(body);
    if (newPassword === null) throw new SessauthError('invalid_request');
    await users.changePassword(user, newPassword);
    await auth.invalidateAllForUser(user.id);
  };
  return { config, auth, users, changePassword, close: () => stores.close() };
}

/** Parses a JSON request body read by the host; anything unparsable is 400 `invalid_request`. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new SessauthError('invalid_request', { cause });
  }
}

/** The body of `POST /me/password`: `{"new_password": "..."}` with 1..1024 characters. */
function newPasswordOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const value = (body as Record<string, unknown>).new_password;
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 ? value : null;
}
