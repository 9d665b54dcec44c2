import type { Clock } from '../../../src/time/clock.js';
import { createSessauth } from '../../../src/engine/create-sessauth.js';
import { SessauthError } from '../../../src/errors/sessauth-error.js';
import type { Logger } from '../../../src/log/logger.js';
import type { SessauthOptions } from '../../../src/options/options.js';
import type { Sessauth } from '../../../src/engine/sessauth.js';
import type { SessionStore } from '../../../src/store/store-port.js';
import type { UserPort } from '../../../src/users/user-port.js';

/** A host user whose security stamp the test changes, as a password change would. */
export interface PropertyUser {
  readonly id: string;
  readonly username: string;
  readonly password: string;
  stamp: string;
}

/** A clock that moves only when told to: every reading in between is the same instant. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(startMs: number) {
    this.#ms = startMs;
  }

  now(): Date {
    return new Date(this.#ms);
  }

  get ms(): number {
    return this.#ms;
  }

  advanceMs(ms: number): void {
    this.#ms += ms;
  }
}

/** Keeps event names only: a property may assert that nothing unexpected was logged. */
export class EventLog implements Logger {
  readonly events: string[] = [];
  warn(event: string): void {
    this.events.push(event);
  }
  error(event: string): void {
    this.events.push(`error:${event}`);
  }
}

export const PROPERTY_SECRET = 'a-property-test-secret-long-enough-for-hs256!';
export const PROPERTY_ISSUER = 'https://issuer.property.test';
export const PROPERTY_AUDIENCE = 'sessauth-property';

export interface PropertyEngineInput {
  readonly store: SessionStore;
  readonly clock: Clock;
  readonly users: readonly PropertyUser[];
  readonly options?: Partial<SessauthOptions>;
  readonly logger?: Logger;
}

/**
 * The real engine with a user table the test owns and a password check without
 * hashing (argon2's 20 ms a login would cap the number of generated cases, and the
 * hasher is not what these properties are about). Throttles are off.
 */
export function createPropertyEngine(input: PropertyEngineInput): Promise<Sessauth<PropertyUser>> {
  const byId = new Map(input.users.map((user) => [user.id, user]));
  const users: UserPort<PropertyUser> = {
    findById: async (id) => byId.get(id) ?? null,
    idOf: (user) => user.id,
    securityStamp: (user) => user.stamp,
    usernameOf: (user) => user.username,
  };
  return createSessauth<PropertyUser>({
    options: {
      secretKey: PROPERTY_SECRET,
      issuer: PROPERTY_ISSUER,
      audience: PROPERTY_AUDIENCE,
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      ...input.options,
    },
    store: input.store,
    users,
    authenticator: async (body) => {
      const user = input.users.find((candidate) => candidate.username === body.username);
      if (user === undefined || body.password !== user.password) throw new SessauthError('invalid_credentials');
      return user;
    },
    clock: input.clock,
    logger: input.logger ?? new EventLog(),
  });
}
