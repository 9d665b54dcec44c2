import type {
  GeolocationProvider,
  PasswordHasher,
  RateLimitStore,
  Sessauth,
  SessauthInstrumentation,
  SessauthOptions,
  SessionStore,
  SetPassword,
  UserPort,
} from '@sessauth/core';
import type { AdapterSkipEntry } from './adapter-test-ids.js';
import type { CapturingLogger } from './capturing-logger.js';
import type { ConformanceUser, UserTable } from './conformance-users.js';
import type { TestClock } from './test-clock.js';

export type { ConformanceUser } from './conformance-users.js';

/** One running app: where it listens, and how to stop it. */
export interface AppUnderTest {
  baseUrl: string;
  close(): Promise<void>;
}

/** What the host side of the conformance app provides to a mount. */
export interface ConformanceHost {
  /** Stores a user's new password (and changes their security stamp), for `POST /me/password`. */
  readonly setPassword: SetPassword<ConformanceUser>;
  /**
   * When set (`'/api'`), mount the adapter under this path the framework's own way
   * (Express `app.use('/api', ...)`, koa-mount, a Fastify plugin `prefix`, Hono `basePath`):
   * the endpoints answer under `mountPath + prefix`; the host routes (`/me`, ...) stay at the root.
   */
  readonly mountPath?: string;
}

/**
 * Mounts a ready Sessauth instance in the adapter's framework and listens on 127.0.0.1:0. The app must:
 * - pass every request to the adapter's sessauth routes (the endpoints under `auth.options.prefix`),
 * - serve `GET /me` behind the adapter's guard, answering 200 `{"user":{"id","username"},"session":{"id"}}`,
 *   with guard failures answered by the core's error response (`auth.errorResponse(err)`),
 * - serve `GET /me/optional` behind the adapter's optional guard, answering 200 `{"user":{"id","username"}}`
 *   with a valid token and `{"user":null}` without an `Authorization` header (a bad token: the core's error),
 * - serve `GET /me/fresh` behind the adapter's `requireFresh(auth, FRESH_ROUTE_RULE)`, answering as `GET /me`
 *   (a stale session: the core's 401 `insufficient_user_authentication`),
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

/** The part of the engine the suites reach into besides HTTP. */
export type TestAppAuth = Pick<Sessauth<ConformanceUser>, 'options' | 'on' | 'invalidateAllForUser' | 'purgeExpired'>;

/** What one test asks of an engine that runs in another process (Bun, Deno, workerd). */
export interface RemoteAppSetup {
  readonly options: SessauthOptions;
  /** The host's users: the remote engine reads them back from this process, so tests flip them in place. */
  readonly users: UserTable;
  /** The test's clock: every `advance` reaches the remote engine before the next request. */
  readonly clock: TestClock;
  /** Every line the remote engine logs, delivered before the answer of the request that logged it. */
  readonly logger: CapturingLogger;
  readonly extras: TestAppExtras;
  /** The cell's store as this process sees it (for `extras.wrapStore`). */
  readonly store: SessionStore;
}

/** An engine built and served by another runtime, with the handles the suites use. */
export interface RemoteApp extends AppUnderTest {
  readonly auth: TestAppAuth;
}

/**
 * Builds an engine with the test's settings inside another runtime and serves it there on
 * 127.0.0.1 with the routes `MountApp` describes; the engine's clock, users, logs, events and
 * (when a test wraps them) store, limiter and geolocation stay reachable from this process.
 */
export type StartRemoteApp = (setup: RemoteAppSetup) => Promise<RemoteApp>;

/** A cell whose app runs in this process (`mountApp`) or in another runtime (`startRemoteApp`). */
export type AdapterConformanceInput =
  | { mountApp: MountApp; startRemoteApp?: undefined; makeStore: StoreFactory; makeRateLimitStore?: RateLimitStoreFactory }
  | { startRemoteApp: StartRemoteApp; mountApp?: undefined; makeStore: StoreFactory; makeRateLimitStore?: undefined };

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
  /**
   * An observer every in-process app of the cell is created with (`createSessauth({ instrumentation })`,
   * for example `sessauthOpenTelemetry()`): the whole suite then shows that it changes no answer.
   */
  instrumentation?: () => SessauthInstrumentation;
}

/** Per-test parts that replace the cell's defaults (fault injection, geolocation). */
export interface TestAppExtras {
  /** Wraps the cell's store, e.g. to make it fail. */
  readonly wrapStore?: (store: SessionStore) => SessionStore;
  readonly rateLimitStore?: RateLimitStore;
  readonly geolocation?: GeolocationProvider;
  /** Another app's users (same ids and stamps), e.g. a restart of that app on the same store. */
  readonly users?: UserTable;
  /** The password hasher of the login (real argon2id by default), e.g. one with a short waiting line. */
  readonly hasher?: PasswordHasher;
  /** Wraps the users port, e.g. a lookup that folds spellings together as a SQL collation does. */
  readonly wrapUsers?: (users: UserPort<ConformanceUser>) => UserPort<ConformanceUser>;
  /** Mount the adapter under this path (see `ConformanceHost.mountPath`); `prefix` and `at()` include it. */
  readonly mountPath?: string;
}
