// The guard of a sessauth engine on the memory store, in process, for the CPU benches
// (guard-cpu.ts, guard-otel.ts): SEEDED_SESSIONS other sessions, one user logged in. It takes
// the core package as a parameter, so another copy of packages/core can be set beside this one.
import type * as Core from '@sessauth/core';
import { inProcessRequest } from './bench-auth.js';
import { AUDIENCE, BENCH_USER, ISSUER, SECRET, SEEDED_SESSIONS } from './config.js';
import type { Once } from './cpu-per-call.js';
import { seedSessions } from './stores/seed.js';

/** A plain-text "hasher": the guard never hashes; login only needs to find the user. */
const plainHasher = { hash: async (p: string) => p, verify: async (h: string, p: string) => h === p };

/** `auth.authenticate` of an engine built from `core`, with `instrumentation` when given. */
export async function guardOf(core: typeof Core, instrumentation?: Core.SessauthInstrumentation): Promise<Once> {
  const store = new core.MemorySessionStore();
  await seedSessions(store, SEEDED_SESSIONS);
  const user = { id: BENCH_USER.id, username: BENCH_USER.username, password: BENCH_USER.password, stamp: 'stamp-1' };
  const users = {
    findById: async (id: string) => (id === user.id ? user : null),
    idOf: (u: typeof user) => u.id,
    securityStamp: (u: typeof user) => u.stamp,
    findByUsername: async (name: string) => (name === user.username ? { user, passwordHash: user.password } : null),
  };
  const auth = await core.createSessauth({
    options: { secretKey: SECRET, issuer: ISSUER, audience: AUDIENCE, loginThrottleRate: '0', accessTokenExpireSeconds: 3600 },
    store,
    users,
    authenticator: core.createPasswordAuthenticator({ users, hasher: plainHasher }),
    ...(instrumentation === undefined ? {} : { instrumentation }),
  });
  const login = await auth.handle(inProcessRequest('POST', '/auth/login/', {}, JSON.stringify({ username: user.username, password: user.password })));
  const token = (JSON.parse(login!.body!) as { access_token: string }).access_token;
  const input = { authorization: [`Bearer ${token}`] };
  await auth.authenticate(input);
  return () => auth.authenticate(input);
}
