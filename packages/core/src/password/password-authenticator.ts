import { SessauthError } from '../errors/sessauth-error.js';
import type { Authenticator, UserPort } from '../users/user-port.js';
import type { PasswordHasher } from '../users/password-hasher.js';
import { hasUnstorableChar } from '../text/unsafe-text.js';

export interface PasswordAuthenticatorInput<U> {
  /** Must implement `findByUsername`. */
  readonly users: UserPort<U>;
  readonly hasher: PasswordHasher;
}

/**
 * The built-in login flow for `{"username": "...", "password": "..."}`.
 * Wrong field types: 400 `invalid_request`. Every credential failure is 401
 * `invalid_credentials`. An unknown user still costs one hash verification
 * (against a dummy hash made once, lazily), so response time does not reveal
 * which usernames exist. Lengths are checked in UTF-16 units before any hashing,
 * against the engine's `JWT_MAX_USERNAME_LENGTH` and `JWT_MAX_PASSWORD_LENGTH`.
 */
export function createPasswordAuthenticator<U>(input: PasswordAuthenticatorInput<U>): Authenticator<U> {
  const { users, hasher } = input;
  const findByUsername = users.findByUsername?.bind(users);
  if (findByUsername === undefined) {
    throw new Error('createPasswordAuthenticator: users.findByUsername is required');
  }
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = (): Promise<string> => {
    dummyHash ??= hasher.hash(randomPassword()).catch((error: unknown) => {
      dummyHash = undefined; // retry on the next login rather than caching a failure
      throw error;
    });
    return dummyHash;
  };

  const authenticate: Authenticator<U> = async (body, { options, signal, accountAttempt }) => {
    const { username, password } = body;
    if (typeof username !== 'string' || typeof password !== 'string') {
      throw new SessauthError('invalid_request');
    }
    if (username.length > options.maxUsernameLength || password.length > options.maxPasswordLength) {
      throw new SessauthError('invalid_credentials');
    }
    if (hasUnstorableChar(username)) {
      throw new SessauthError('invalid_credentials');
    }
    const found = await findByUsername(username);
    // The per-account budget under the user the name resolved to, before any hashing.
    await accountAttempt?.(found === null ? null : users.idOf(found.user));
    if (found === null) {
      await hasher.verify(await getDummyHash(), password, { signal });
      throw new SessauthError('invalid_credentials');
    }
    if (!(await hasher.verify(found.passwordHash, password, { signal }))) {
      throw new SessauthError('invalid_credentials');
    }
    return found.user;
  };
  return Object.assign(authenticate, { passwordHasher: hasher, amr: ['pwd'] as const });
}

function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
