import { createSessauth, MemorySessionStore, SessauthError, type Sessauth, type SessauthOptions } from '@sessauth/core';

export interface AdapterTestUser {
  id: string;
  username: string;
}

const alice: AdapterTestUser = { id: 'u-alice', username: 'alice' };

/**
 * A small engine for an adapter's own tests (translation details, not the contract):
 * the in-memory store, one user `alice` with password `pw` and no hashing, no throttling.
 */
export function createAdapterTestEngine(overrides: Partial<SessauthOptions> = {}): Promise<Sessauth<AdapterTestUser>> {
  return createSessauth<AdapterTestUser>({
    options: {
      secretKey: 'adapter-test-secret-0123456789abcdefghijklmnopqrstuv',
      issuer: 'https://issuer.test',
      audience: 'sessauth-adapter-test',
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
