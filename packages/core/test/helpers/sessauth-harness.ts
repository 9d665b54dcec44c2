import type { Clock } from '../../src/time/clock.js';
import { createSessauth } from '../../src/engine/create-sessauth.js';
import type { GeolocationProvider } from '../../src/geo/location.js';
import type { SessauthRequest, SessauthResponse } from '../../src/http/sessauth-request.js';
import type { Logger } from '../../src/log/logger.js';
import type { SessauthOptions } from '../../src/options/options.js';
import { createPasswordAuthenticator } from '../../src/password/password-authenticator.js';
import type { PasswordHasher } from '../../src/users/password-hasher.js';
import type { Sessauth } from '../../src/engine/sessauth.js';
import { MemorySessionStore } from '../../src/store/memory-store.js';
import type { SessionStore } from '../../src/store/store-port.js';
import type { UserPort } from '../../src/users/user-port.js';

export interface TestUser {
  readonly id: string;
  readonly username: string;
  readonly password: string;
  readonly admin: boolean;
}

export const USERS: readonly TestUser[] = [
  { id: 'user-alice', username: 'alice', password: 'alice-password', admin: true },
  { id: 'user-bob', username: 'bob', password: 'bob-password', admin: false },
];

/** A fast, obviously test-only hasher so the real password authenticator runs without argon2's cost. */
export const plainHasher: PasswordHasher = {
  hash: async (password) => `plain:${password}`,
  verify: async (hash, password) => hash === `plain:${password}`,
};

class TestUsers implements UserPort<TestUser> {
  async findById(id: string) {
    return USERS.find((u) => u.id === id) ?? null;
  }
  idOf(user: TestUser) {
    return user.id;
  }
  securityStamp(user: TestUser) {
    return `stamp-${user.id}`;
  }
  async findByUsername(username: string) {
    const user = USERS.find((u) => u.username === username);
    return user ? { user, passwordHash: `plain:${user.password}` } : null;
  }
}

/** The users port over USERS, for a test that builds its own engine. */
export const testUsers: UserPort<TestUser> = new TestUsers();

export const silentLogger: Logger & { lines: string[] } = {
  lines: [],
  warn(event) {
    this.lines.push(event);
  },
  error(event) {
    this.lines.push(event);
  },
};

export interface HarnessOptions {
  readonly options?: Partial<SessauthOptions>;
  /** A store with the admin listing capability (the harness turns the listing on). */
  readonly store?: SessionStore & Required<Pick<SessionStore, 'listSessionsForAdmin'>>;
  readonly geolocation?: GeolocationProvider | null;
  /** Serve the admin listing. @default true */
  readonly admin?: boolean;
}

/**
 * Real time, but every reading is at least 1 ms after the one before: two logins
 * in a row never share a `createdAt`, so "newest first" has one right answer.
 */
function tickingClock(): Clock {
  let last = 0;
  return {
    now: () => {
      last = Math.max(Date.now(), last + 1);
      return new Date(last);
    },
  };
}

export async function createHarness(input: HarnessOptions = {}) {
  const store = input.store ?? new MemorySessionStore();
  const users = new TestUsers();
  const auth: Sessauth<TestUser> = await createSessauth<TestUser>({
    options: {
      secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
      issuer: 'https://issuer.test',
      audience: 'sessauth-test',
      loginThrottleRate: '0',
      ...input.options,
    },
    store,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher: plainHasher }),
    ...(input.admin === false ? {} : { admin: { isAdmin: (user: TestUser) => user.admin } }),
    geolocation: input.geolocation ?? null,
    logger: silentLogger,
    clock: tickingClock(),
  });
  return { auth, store };
}

export interface RequestInit {
  readonly method?: string;
  readonly path: string;
  readonly query?: string;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string;
  readonly peerAddress?: string | null;
  readonly secure?: boolean;
}

/** A SessauthRequest as an adapter would build it. */
export function sessauthRequest(init: RequestInit): SessauthRequest {
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name.toLowerCase(), Array.isArray(value) ? value : [value]);
  const body = new TextEncoder().encode(init.body ?? '');
  return {
    method: init.method ?? 'GET',
    path: init.path,
    ...(init.query === undefined ? {} : { query: init.query }),
    headers,
    peerAddress: init.peerAddress === undefined ? '127.0.0.1' : init.peerAddress,
    secure: init.secure ?? false,
    readBody: async () => body,
  };
}

/** Signs in over `POST /auth/login/` (body transport) and returns the access token. */
export async function apiLogin(
  auth: Sessauth<TestUser>,
  username: string,
  extra: { userAgent?: string; peerAddress?: string } = {},
): Promise<string> {
  const user = USERS.find((u) => u.username === username)!;
  const response = await auth.handle(
    sessauthRequest({
      method: 'POST',
      path: `${auth.options.prefix}/login/`,
      headers: { 'content-type': 'application/json', ...(extra.userAgent === undefined ? {} : { 'user-agent': extra.userAgent }) },
      body: JSON.stringify({ username, password: user.password }),
      ...(extra.peerAddress === undefined ? {} : { peerAddress: extra.peerAddress }),
    }),
  );
  if (response?.status !== 200) throw new Error(`login failed: ${response?.status} ${response?.body}`);
  return (JSON.parse(response.body!) as { access_token: string }).access_token;
}

/** name -> value of every Set-Cookie line. */
export function cookiesSet(response: SessauthResponse): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of response.setCookies) {
    const pair = line.split(';')[0]!;
    const eq = pair.indexOf('=');
    cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return cookies;
}

export function setCookieLine(response: SessauthResponse, name: string): string | undefined {
  return response.setCookies.find((line) => line.startsWith(`${name}=`));
}
