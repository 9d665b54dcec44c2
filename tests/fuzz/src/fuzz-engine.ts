import { createSessauth, MemorySessionStore, SessauthError, type Logger, type Sessauth } from '@sessauth/core';

/** The one user of the fuzzed app. */
export interface FuzzUser {
  readonly id: string;
  readonly username: string;
}

export const FUZZ_USER: FuzzUser = { id: 'fuzz-user', username: 'alice' };
export const FUZZ_PASSWORD = 'alice-password';

/** How many events the engine logged, by level and name (counts only: the log must not grow the heap). */
export class LevelLog implements Logger {
  readonly counts = new Map<string, number>();
  error(event: string): void {
    this.#count('error', event);
  }
  warn(event: string): void {
    this.#count('warn', event);
  }
  info(event: string): void {
    this.#count('info', event);
  }
  debug(event: string): void {
    this.#count('debug', event);
  }
  /** `level:event` of every error-level event: each one is a failure of the fuzz property. */
  errors(): string[] {
    return [...this.counts.keys()].filter((key) => key.startsWith('error:'));
  }
  #count(level: string, event: string): void {
    const key = `${level}:${event}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

/**
 * The engine every adapter is fuzzed with: the memory store (the adapters, not a store,
 * are under test), `both` transport so the CSRF, cookie and body paths are all reachable,
 * the loopback peer trusted as a proxy (so forwarded headers are parsed), throttles
 * off so generated logins get past the limiter, and a password check without
 * argon2 (its 20 ms a login would cap the request count).
 */
export async function createFuzzEngine(logger: Logger): Promise<Sessauth<FuzzUser>> {
  return createSessauth<FuzzUser>({
    options: {
      secretKey: 'a-fuzz-secret-that-is-long-enough-for-hs256-and-then-some',
      issuer: 'https://issuer.fuzz.test',
      audience: 'sessauth-fuzz',
      refreshTokenTransport: 'both',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      maxActiveSessions: 5,
      // The socket peer is trusted, so generated X-Forwarded-For and -Proto headers are read.
      trustedProxyCidrs: ['127.0.0.1'],
      // The activity history and the risk signals, so their route and their writes are fuzzed too.
      sessionActivity: true,
      riskSignals: true,
    },
    store: new MemorySessionStore(),
    users: {
      findById: async (id) => (id === FUZZ_USER.id ? FUZZ_USER : null),
      idOf: (user) => user.id,
      securityStamp: () => 'fuzz-stamp',
      // So the password step-up (POST /auth/reauthenticate/) is served and fuzzed too.
      usernameOf: (user) => user.username,
    },
    authenticator: async (body) => {
      if (body.username === FUZZ_USER.username && body.password === FUZZ_PASSWORD) return FUZZ_USER;
      throw new SessauthError('invalid_credentials');
    },
    admin: { isAdmin: () => true },
    logger,
  });
}
