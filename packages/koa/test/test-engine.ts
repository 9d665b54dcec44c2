import { createSessauth, MemorySessionStore, SessauthError, type Sessauth, type SessauthOptions } from '@sessauth/core';

export interface TestUser {
  id: string;
  username: string;
}

const alice: TestUser = { id: 'u-alice', username: 'alice' };

/** An engine over the in-memory store with one user, alice:pw (no hashing: these tests are about translation). */
export function testEngine(overrides: Partial<SessauthOptions> = {}): Promise<Sessauth<TestUser>> {
  return createSessauth<TestUser>({
    options: {
      secretKey: 'koa-adapter-test-secret-xxx-0123456789abcdefghij',
      issuer: 'https://issuer.test',
      audience: 'sessauth-koa-test',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      ...overrides,
    },
    store: new MemorySessionStore(),
    users: {
      findById: async (id) => (id === alice.id ? alice : null),
      idOf: (user) => user.id,
      securityStamp: () => 'stamp-1',
    },
    authenticator: async (body) => {
      if (body.username === 'alice' && body.password === 'pw') return alice;
      throw new SessauthError('invalid_credentials');
    },
  });
}
