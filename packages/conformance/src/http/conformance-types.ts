import type { RateLimitStore, Sessauth, SessionStore, SetPassword } from '@sessauth/core';
import type { AdapterSkipEntry } from './adapter-test-ids.js';

/** The host's user in the conformance app; tests flip `active` and `stamp` in place. */
export interface ConformanceUser {
  id: string;
  username: string;
  passwordHash: string;
  stamp: string;
  active: boolean;
}

/** One running app: where it listens, and how to stop it. */
export interface AppUnderTest {
  baseUrl: string;
  close(): Promise<void>;
}

/** What the host side of the conformance app provides to a mount. */
export interface ConformanceHost {
  /** Stores a user's new password (and changes their security stamp), for `POST /me/password`. */
  readonly setPassword: SetPassword<ConformanceUser>;
}

/**
 * Mounts a ready Sessauth instance in the adapter's framework and listens on 127.0.0.1:0. The app must:
 * - pass every request to the adapter's sessauth routes (the endpoints under `auth.options.prefix`),
 * - serve `GET /me` behind the adapter's guard, answering 200 `{"user":{"id","username"},"session":{"id"}}`,
 *   with guard failures answered by the core's error response (`auth.errorResponse(err)`),
 * - serve `GET /me/optional` behind the adapter's optional guard, answering 200 `{"user":{"id","username"}}`
 *   with a valid token and `{"user":null}` without an `Authorization` header (a bad token: the core's error),
 * - serve `POST /me/password` behind the same guard, answered by
 *   `auth.changePassword(<the adapter's SessauthRequest>, <the guard's context>, host.setPassword)`,
 *   with the body left unread for the core (no framework body parser on that route),
 * - trust nothing but the TCP peer for the client address.
 */
export type MountApp = (auth: Sessauth<ConformanceUser>, host: ConformanceHost) => Promise<AppUnderTest>;

/** Opens a session store for one conformance cell; `null` means the backing server is unavailable (skip). */
export type StoreFactory = () => Promise<{ store: SessionStore; close(): Promise<void> } | null>;

/** Opens a shared rate-limit store; without one each test app gets the core's in-memory counters. */
export type RateLimitStoreFactory = () => Promise<{ store: RateLimitStore; close(): Promise<void> }>;

export interface AdapterConformanceInput {
  mountApp: MountApp;
  makeStore: StoreFactory;
  makeRateLimitStore?: RateLimitStoreFactory;
}

export interface AdapterConformanceOptions {
  /**
   * Test ids (`"csrf/origin"`) or topics (`"csrf/"`) to skip, each with a reason in the
   * caller's code. Checked by the compiler against `AdapterTestId` / `AdapterTestTopic`.
   */
  skip?: readonly AdapterSkipEntry[];
  /**
   * Checks every answer of every test under the prefix against the core's OpenAPI
   * description (`@sessauth/core/openapi`, for that test's settings): status and error code
   * declared for the route, body schema, content type, headers and cookie names. Off by
   * default; one cell of a matrix is enough.
   */
  checkOpenApi?: boolean;
}
