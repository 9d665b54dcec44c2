import {
  createPasswordAuthenticator,
  createSessauth,
  type Sessauth,
  type SessauthOptions,
  type SessionStore,
  type RateLimitStore,
  type UserPort,
} from '@sessauth/core';
import type { SessauthRequest } from '@sessauth/core/adapter';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { ACCESS_TOKEN_SECONDS, AUDIENCE, ISSUER, SECRET } from './config.js';

export interface BenchUser {
  readonly id: string;
  readonly username: string;
  readonly passwordHash: string;
  readonly stamp: string;
}

/** Users in a Map, as a host's cached user table would be: the bench measures the guard, not a user query. */
export class BenchUsers implements UserPort<BenchUser> {
  readonly #byId = new Map<string, BenchUser>();
  readonly #byName = new Map<string, BenchUser>();

  static async create(users: readonly { id: string; username: string; password: string }[]): Promise<BenchUsers> {
    const directory = new BenchUsers();
    for (const { id, username, password } of users) {
      const user = { id, username, passwordHash: await argon2PasswordHasher.hash(password), stamp: `stamp-${id}` };
      directory.#byId.set(id, user);
      directory.#byName.set(username, user);
    }
    return directory;
  }

  async findById(id: string): Promise<BenchUser | null> {
    return this.#byId.get(id) ?? null;
  }
  idOf(user: BenchUser): string {
    return user.id;
  }
  securityStamp(user: BenchUser): string {
    return user.stamp;
  }
  usernameOf(user: BenchUser): string {
    return user.username;
  }
  async findByUsername(username: string): Promise<{ user: BenchUser; passwordHash: string } | null> {
    const user = this.#byName.get(username);
    return user === undefined ? null : { user, passwordHash: user.passwordHash };
  }
}

/** Settings a measurement turns on or off beside the bench's own (DPoP, coalesced reads). */
export type BenchOverrides = Pick<SessauthOptions, 'dpop' | 'coalesceSessionReads'>;

/**
 * The engine as a host builds it, with the throttles off (the bench logs in and
 * refreshes far above 5/min from one address) and long-lived access tokens.
 */
export function createBenchAuth(
  store: SessionStore,
  rateLimitStore: RateLimitStore,
  users: BenchUsers,
  overrides: BenchOverrides = {},
): Promise<Sessauth<BenchUser>> {
  return createSessauth<BenchUser>({
    options: {
      secretKey: SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      accessTokenExpireSeconds: ACCESS_TOKEN_SECONDS,
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      maxActiveSessions: 1000,
      ...overrides,
    },
    store,
    rateLimitStore,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: argon2PasswordHasher }),
    logger: { warn: (event) => console.error(`sessauth warn: ${event}`), error: (event) => console.error(`sessauth error: ${event}`) },
  });
}

/** A request to the engine without a socket: what an adapter would hand it. */
export function inProcessRequest(method: string, path: string, headers: Record<string, string>, body?: string): SessauthRequest {
  const bytes = new TextEncoder().encode(body ?? '');
  const map = new Map<string, string[]>(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), [value]]));
  if (body !== undefined) map.set('content-type', ['application/json']);
  return { method, path, query: '', headers: map, peerAddress: '127.0.0.1', secure: false, readBody: async () => bytes };
}

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** A real login through the engine's own endpoint (argon2 verify included), with `headers` (a `DPoP` proof, its `host`). */
export async function logIn(auth: Sessauth<BenchUser>, username: string, password: string, headers: Record<string, string> = {}): Promise<TokenPair> {
  const response = await auth.handle(inProcessRequest('POST', `${auth.options.prefix}/login/`, headers, JSON.stringify({ username, password })));
  return tokensOf(response?.status, response?.body ?? null, 'login');
}

/** One refresh through the engine's own endpoint. */
export async function refresh(auth: Sessauth<BenchUser>, refreshToken: string): Promise<TokenPair> {
  const response = await auth.handle(
    inProcessRequest('POST', `${auth.options.prefix}/refresh/`, {}, JSON.stringify({ refresh_token: refreshToken })),
  );
  return tokensOf(response?.status, response?.body ?? null, 'refresh');
}

function tokensOf(status: number | undefined, body: string | null, what: string): TokenPair {
  if (status !== 200 || body === null) throw new Error(`${what} answered ${status}: ${body}`);
  const parsed = JSON.parse(body) as { access_token: string; refresh_token: string };
  return { accessToken: parsed.access_token, refreshToken: parsed.refresh_token };
}
