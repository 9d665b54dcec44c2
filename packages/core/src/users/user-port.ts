import type { ResolvedOptions } from '../options/options.js';
import type { PasswordHasher } from './password-hasher.js';

/**
 * What the host application implements so the core can find its users.
 * `U` is the host's own user type; protected routes receive it unchanged.
 */
export interface UserPort<U> {
  /** The user with this id, or null when gone or inactive (401 `invalid_user`). */
  findById(id: string): Promise<U | null>;
  /** The user's id as the token's `sub` (a string). */
  idOf(user: U): string;
  /**
   * A value that changes whenever every session of the user must die (for example
   * derived from the password hash). The core stores only an HMAC of it.
   */
  securityStamp(user: U): string;
  /** For the built-in password authenticator: the user and the stored argon2 hash. */
  findByUsername?(username: string): Promise<{ user: U; passwordHash: string } | null>;
  /**
   * The name the user logs in with. Needed only by `auth.changePassword`, which
   * re-checks the current password through the login's own authenticator.
   */
  usernameOf?(user: U): string;
}

/** What the engine hands every login flow besides the body. */
export interface AuthenticatorContext {
  /** The validated settings (for example `maxUsernameLength`, `maxPasswordLength`). */
  readonly options: ResolvedOptions;
  /**
   * Aborted when the login's client has gone away: hand it to the password hasher
   * (`hasher.verify(hash, password, { signal })`), so a check still waiting for a place is
   * dropped instead of run for nobody.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Call once the user lookup is done, before checking the credential, with the id of the
   * user the submitted name resolved to (null: none). It spends the per-account login
   * budget under that user (JWT_LOGIN_ACCOUNT_THROTTLE_RATE) and rejects with 429 when it is
   * spent, so names your lookup folds together (case, accents) share one budget. The
   * built-in password authenticator calls it.
   */
  readonly accountAttempt?: ((userId: string | null) => Promise<void>) | undefined;
}

/**
 * A login flow. It receives the parsed JSON body of `POST /auth/login/` and returns
 * the user, or throws `SessauthError('invalid_credentials')`.
 */
export type Authenticator<U> = ((body: Readonly<Record<string, unknown>>, context: AuthenticatorContext) => Promise<U>) & {
  /** The hasher behind a password login (set by `createPasswordAuthenticator`), checked by `createSessauth`. */
  readonly passwordHasher?: PasswordHasher;
  /**
   * How this flow proves who the user is, as RFC 8176 `amr` values recorded on the session
   * (`createPasswordAuthenticator` sets `['pwd']`). Absent: unknown, recorded as [].
   */
  readonly amr?: readonly string[];
};
