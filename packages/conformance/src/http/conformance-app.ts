import {
  createPasswordAuthenticator,
  createSessauth,
  type RateLimitStore,
  type SessauthInstrumentation,
  type SessauthOptions,
  type SessionStore,
  type TokenResponseBody,
} from '@sessauth/core';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { CapturingLogger } from './capturing-logger.js';
import type { AppUnderTest, ConformanceUser, MountApp, RemoteAppSetup, StartRemoteApp, TestAppAuth, TestAppExtras } from './conformance-types.js';

export type { TestAppExtras } from './conformance-types.js';
import { makeUserTable, setPasswordIn, userPortOver, type UserName, type UserTable } from './conformance-users.js';
import { HttpClient, field, type HttpResult } from './http-client.js';
import { TestClock } from './test-clock.js';
import { claimsOf, type ForgeSettings } from './token-forge.js';

/** What one conformance cell shares across its tests. */
export interface CellParts {
  /** Either the app runs here (`mountApp`), or its engine runs in another runtime (`startRemoteApp`). */
  readonly mountApp: MountApp | undefined;
  readonly startRemoteApp: StartRemoteApp | undefined;
  readonly store: SessionStore;
  readonly rateLimitStore: RateLimitStore | undefined;
  /** Makes the observer each in-process app is created with; undefined: none. */
  readonly instrumentation?: (() => SessauthInstrumentation) | undefined;
}

/** A session just created by a login. */
export interface LoggedIn {
  readonly client: HttpClient;
  readonly access: string;
  /** From the JSON body, else from the refresh cookie. */
  readonly refresh: string;
  readonly sessionId: string;
  readonly result: HttpResult;
}

export interface LoginOptions {
  /** Log in from this client (its cookies and CSRF token); a fresh one by default. */
  readonly client?: HttpClient;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One app under test with its users, clock, logs and helpers. Closed after each test. */
export interface TestApp {
  readonly auth: TestAppAuth;
  readonly baseUrl: string;
  /** Where the endpoints answer: the mount path (when the test asked for one) and the engine's prefix. */
  readonly prefix: string;
  /** The mount path the test asked for ('' at the root). */
  readonly mountPath: string;
  readonly clock: TestClock;
  readonly users: UserTable;
  readonly store: SessionStore;
  readonly logger: CapturingLogger;
  /** Every token, cookie value, password and IP this test saw: none may appear in a log line. */
  readonly secrets: Set<string>;
  readonly forge: ForgeSettings;
  client(): HttpClient;
  /** Logs a user in (fetching the CSRF token first in cookie/both modes); fails unless 200. */
  login(who: UserName, options?: LoginOptions): Promise<LoggedIn>;
  /** POST {prefix}/refresh/ the way the transport wants: the token in the body, or `{}` with cookie and CSRF. */
  refresh(client: HttpClient, token?: string): Promise<HttpResult>;
  /** `path` under the prefix: `at('/login/')` is `/auth/login/`. */
  at(path: string): string;
  close(): Promise<void>;
}

/** The base configuration every test starts from (throttles off unless a test turns them on). */
export function baseOptions(): SessauthOptions {
  return {
    secretKey: Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url'),
    issuer: 'https://issuer.test',
    audience: 'sessauth-conformance',
    loginThrottleRate: '0',
    refreshThrottleRate: '0',
  };
}

export async function startTestApp(parts: CellParts, overrides: Partial<SessauthOptions> = {}, extras: TestAppExtras = {}): Promise<TestApp> {
  const options: SessauthOptions = { ...baseOptions(), ...overrides };
  const users = extras.users ?? (await makeUserTable());
  const clock = new TestClock();
  const logger = new CapturingLogger();
  const rateLimitStore = extras.rateLimitStore ?? parts.rateLimitStore;
  const { auth, mounted } =
    parts.startRemoteApp === undefined
      ? await startHere(parts, { options, users, clock, logger, extras, rateLimitStore })
      : await startRemote(parts.startRemoteApp, { options, users, clock, logger, extras, store: parts.store });
  const secrets = new Set<string>([
    users.passwords.alice,
    users.passwords.bob,
    users.alice.passwordHash,
    users.bob.passwordHash,
    options.secretKey,
    ...(options.previousSecretKeys ?? []),
    ...(options.securityStampKey === undefined ? [] : [options.securityStampKey]),
  ]);
  const mountPath = extras.mountPath ?? '';
  const prefix = `${mountPath}${auth.options.prefix}`;
  const transport = auth.options.refreshTokenTransport;
  const at = (path: string) => `${prefix}${path}`;
  const client = () => new HttpClient(mounted.baseUrl, secrets);

  const refresh = async (from: HttpClient, token?: string): Promise<HttpResult> => {
    if (transport === 'body') return from.post(at('/refresh/'), { json: { refresh_token: token } });
    await from.fetchCsrf(prefix);
    return from.post(at('/refresh/'), { json: token === undefined ? {} : { refresh_token: token }, csrf: true });
  };

  const login = async (who: UserName, loginOptions: LoginOptions = {}): Promise<LoggedIn> => {
    const from = loginOptions.client ?? client();
    if (transport !== 'body') await from.fetchCsrf(prefix);
    const result = await from.post(at('/login/'), {
      json: { username: who, password: users.passwords[who] },
      csrf: transport !== 'body',
      ...(loginOptions.headers === undefined ? {} : { headers: loginOptions.headers }),
    });
    const access = field<TokenResponseBody>(result.body, 'access_token');
    const refreshToken = field<TokenResponseBody>(result.body, 'refresh_token') ?? from.jar.get(auth.options.refreshCookieName);
    if (result.status !== 200 || typeof access !== 'string' || typeof refreshToken !== 'string') {
      throw new Error(`login of ${who} answered ${result.status} ${result.text}`);
    }
    const sid = claimsOf(access).sid;
    if (typeof sid !== 'string') throw new Error('the access token carries no string sid claim');
    return { client: from, access, refresh: refreshToken, sessionId: sid, result };
  };

  return {
    auth,
    baseUrl: mounted.baseUrl,
    prefix,
    mountPath,
    clock,
    users,
    store: parts.store,
    logger,
    secrets,
    forge: { secretKey: options.secretKey, issuer: options.issuer, audience: options.audience, now: () => clock.now() },
    client,
    login,
    refresh,
    at,
    close: () => mounted.close(),
  };
}

interface HereSetup {
  readonly options: SessauthOptions;
  readonly users: UserTable;
  readonly clock: TestClock;
  readonly logger: CapturingLogger;
  readonly extras: TestAppExtras;
  readonly rateLimitStore: RateLimitStore | undefined;
}

/** The engine built in this process and mounted by the adapter under test. */
async function startHere(parts: CellParts, setup: HereSetup): Promise<{ auth: TestAppAuth; mounted: AppUnderTest }> {
  const { options, users, clock, logger, extras, rateLimitStore } = setup;
  if (parts.mountApp === undefined) throw new Error('a cell needs mountApp or startRemoteApp');
  const userPort = extras.wrapUsers === undefined ? userPortOver(users) : extras.wrapUsers(userPortOver(users));
  const auth = await createSessauth<ConformanceUser>({
    options,
    store: extras.wrapStore === undefined ? parts.store : extras.wrapStore(parts.store),
    users: userPort,
    authenticator: createPasswordAuthenticator({ users: userPort, hasher: extras.hasher ?? argon2PasswordHasher }),
    clock,
    logger,
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
    ...(extras.geolocation === undefined ? {} : { geolocation: extras.geolocation }),
    ...(parts.instrumentation === undefined ? {} : { instrumentation: parts.instrumentation() }),
  });
  const host = extras.mountPath === undefined ? { setPassword: setPasswordIn } : { setPassword: setPasswordIn, mountPath: extras.mountPath };
  const mounted: AppUnderTest = await parts.mountApp(auth, host);
  return { auth, mounted };
}

/** The engine built and served by another runtime. */
async function startRemote(start: StartRemoteApp, setup: RemoteAppSetup): Promise<{ auth: TestAppAuth; mounted: AppUnderTest }> {
  if (setup.extras.mountPath !== undefined) throw new Error("a remote runtime's app is served at the root: skip 'mount/' for it");
  const remote = await start(setup);
  return { auth: remote.auth, mounted: remote };
}
