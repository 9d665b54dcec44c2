import {
  createPasswordAuthenticator,
  createSessauth,
  type Clock,
  type GeolocationProvider,
  type Location,
  type Logger,
  type PasswordHasher,
  type RateLimitStore,
  type Sessauth,
  type SessionStore,
  type SetPassword,
  type UserPort,
} from '@sessauth/core';
import { callNodeAt, type CallNode } from './call-node.js';
import type { EngineSetup } from './engine-setup.js';

/** The conformance app's user, as Node's table holds it (read back on every lookup). */
export interface HostUser {
  readonly id: string;
  readonly username: string;
  readonly passwordHash: string;
  readonly stamp: string;
  readonly active: boolean;
}

/** The stores a runtime opened for its cell (the limiter is optional: the engine's own counters otherwise). */
export interface CellStores {
  readonly store: SessionStore;
  /**
   * The cell's shared limiter, one key space per engine: each test app counts from zero, as
   * with its own in-memory counters, while the counting is the shared store's.
   */
  readonly rateLimitStoreFor?: ((engine: string) => RateLimitStore) | undefined;
}

/** Keeps every line in order; Node reads them when a test looks. */
export class LineLogger implements Logger {
  readonly lines: string[] = [];
  warn = this.at('warn');
  error = this.at('error');
  info = this.at('info');
  debug = this.at('debug');
  private at(level: string) {
    return (event: string, fields?: Record<string, string | number | boolean | null>) => {
      this.lines.push(JSON.stringify({ level, event, ...fields }));
    };
  }
}

/** Real time plus the offset Node's test clock has moved. */
export class OffsetClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

export interface RemoteEngine {
  readonly auth: Sessauth<HostUser>;
  readonly logger: LineLogger;
  readonly clock: OffsetClock;
  readonly setPassword: SetPassword<HostUser>;
  readonly callNode: CallNode;
  /** Subscriptions made by Node's `auth.on`, by Node's handler id. */
  readonly subscriptions: Map<string, () => void>;
}

/** The engine of one test app, built in this runtime with this runtime's hasher. */
export async function buildRemoteEngine(setup: EngineSetup, cell: CellStores, hasher: PasswordHasher, id: string): Promise<RemoteEngine> {
  const callNode = callNodeAt(setup.callbackUrl);
  const users: UserPort<HostUser> = {
    findById: async (id) => (await callNode('users', 'findById', [id])) as HostUser | null,
    findByUsername: async (name) => (await callNode('users', 'findByUsername', [name])) as { user: HostUser; passwordHash: string } | null,
    idOf: (user) => user.id,
    usernameOf: (user) => user.username,
    securityStamp: (user) => user.stamp,
  };
  const logger = new LineLogger();
  const clock = new OffsetClock();
  clock.offsetMs = setup.clockOffsetMs;
  const rateLimitStore = setup.rateLimitStoreThroughNode ? limiterThroughNode(callNode) : cell.rateLimitStoreFor?.(id);
  const geolocation: GeolocationProvider | undefined = setup.geolocationThroughNode
    ? async (ip) => (await callNode('geolocation', 'lookup', [ip])) as Location | null
    : undefined;
  const auth = await createSessauth<HostUser>({
    options: setup.options,
    store: setup.storeThroughNode ? storeThroughNode(cell.store, callNode) : cell.store,
    users,
    authenticator: createPasswordAuthenticator({ users, hasher }),
    clock,
    logger,
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
    ...(geolocation === undefined ? {} : { geolocation }),
  });
  // The runtime hashes the new password; Node's table only stores it (and changes the stamp).
  const setPassword: SetPassword<HostUser> = async (user, password) => {
    await callNode('users', 'setPasswordHash', [user.id, await hasher.hash(password)]);
  };
  return { auth, logger, clock, setPassword, callNode, subscriptions: new Map() };
}

/** A store whose every call is made by Node (which wraps the cell's store and calls back for it). */
function storeThroughNode(inner: SessionStore, callNode: CallNode): SessionStore {
  const forwarding: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methodNames(inner)) forwarding[name] = (...args) => callNode('store', name, args);
  return forwarding as unknown as SessionStore;
}

function limiterThroughNode(callNode: CallNode): RateLimitStore {
  return { hit: async (...args) => (await callNode('rateLimit', 'hit', args)) as { count: number; resetAt: Date } };
}

/** The methods an object answers, own and inherited (class stores keep them on the prototype). */
export function methodNames(object: object): string[] {
  const names = new Set<string>();
  for (let level: object | null = object; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name !== 'constructor' && typeof (object as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return [...names];
}
