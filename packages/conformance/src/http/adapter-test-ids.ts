/**
 * Every test id of the HTTP conformance suite (`describeAdapterConformance`), suite by
 * suite in the order they run. `kit.test` takes only these, so a new test needs its id
 * here, and `options.skip` is checked by the compiler. The plain node:http adapter's
 * test (test/plain-node-adapter.test.ts) proves the suite registers exactly this list.
 */
export const ADAPTER_TEST_IDS = [
  // seed-flow-suite.ts
  'seed/browser-flow-cookie',
  'seed/browser-flow-both',
  'seed/csrf-stable-across-login',
  // login-suite.ts
  'login/success',
  'login/one-session-per-login',
  'login/invalid-credentials',
  'login/inactive-user',
  'login/field-types',
  'login/not-an-object',
  'login/malformed-json',
  'login/max-active-sessions',
  // login-flood-suite.ts
  'login/flood',
  // refresh-suite.ts
  'refresh/rotates',
  'refresh/replay-is-reuse',
  'refresh/concurrent',
  'refresh/session-lifetime',
  'refresh/security-stamp',
  'refresh/inactive-user',
  'refresh/body-rules',
  // refresh-token-suite.ts
  'refresh-token/invalid',
  'refresh-token/expired',
  'refresh-token/access-token',
  'refresh-token/typ-exact',
  'refresh-token/foreign-sub',
  'refresh-token/no-jti',
  'refresh-token/unknown-jti',
  'refresh-token/unknown-session',
  'refresh-token/too-long',
  // access-token-suite.ts
  'access-token/expired',
  'access-token/invalid',
  'access-token/typ-exact',
  'access-token/refresh-token',
  'access-token/unknown-session',
  'access-token/foreign-sub',
  'access-token/malformed-authorization',
  'access-token/duplicate-authorization',
  // sessions-suite.ts
  'sessions/list-fields',
  'sessions/empty-user-agent',
  'sessions/unauthenticated',
  'sessions/delete-other-own',
  'sessions/delete-current',
  'sessions/delete-not-found',
  'sessions/delete-clears-cookie',
  'sessions/delete-unauthenticated',
  // session-names-suite.ts
  'sessions/rename',
  'sessions/rename-not-found',
  'sessions/rename-bad-input',
  'sessions/rename-invisible',
  'sessions/rename-cookie-transport',
  'sessions/method-not-allowed',
  // activity-suite.ts
  'activity/own-session',
  'activity/not-found',
  'activity/off',
  'activity/new-device-signal',
  'activity/cap-revoked',
  // logout-suite.ts
  'logout/current',
  'logout/revoked-stays-revoked',
  'logout/unauthenticated',
  'logout/all',
  'logout/others',
  'logout/others-unauthenticated',
  'logout/others-keeps-cookie',
  'logout/clears-cookie-cookie',
  'logout/clears-cookie-both',
  'logout/invalidate-all',
  'logout/rows-stay-until-purged',
  // step-up-suite.ts
  'step-up/fresh-route-challenge',
  'step-up/reauthenticate',
  'step-up/reauthenticate-wrong-password',
  'step-up/reauthenticate-request-rules',
  'step-up/reauthenticate-throttled',
  'step-up/reauthenticate-csrf',
  'step-up/refresh-keeps-auth-time',
  'step-up/sensitive-actions-stale',
  'step-up/sensitive-actions-off',
  // access-cookie-suite.ts
  'access-cookie/set-and-read',
  'access-cookie/revoked-and-logout',
  'access-cookie/off',
  // dpop-suite.ts
  'dpop/bound-flow',
  'dpop/stolen-refresh-token',
  'dpop/stolen-access-token',
  'dpop/proof-checks',
  'dpop/hostile-proofs',
  'dpop/required',
  'dpop/off',
  // device-bound-suite.ts
  'device-bound/off',
  'device-bound/flow',
  'device-bound/stolen-cookies',
  'device-bound/hostile-proofs',
  'device-bound/unbound-keeps-working',
  // transport-suite.ts
  'transport/body',
  'transport/cookie',
  'transport/cookie-missing',
  'transport/both',
  'transport/duplicate-refresh-cookie',
  'transport/custom-prefix',
  // csrf-suite.ts
  'csrf/endpoint',
  'csrf/masked-token',
  'csrf/unmasked-secret',
  'csrf/missing-or-wrong',
  'csrf/origin',
  'csrf/duplicate-cookie',
  'csrf/refresh',
  'csrf/both-no-bypass',
  'csrf/allowed-hosts',
  'csrf/ambiguous-forwarded-proto',
  'csrf/logged-reason',
  'csrf/body-mode-off',
  // content-type-suite.ts
  'content-type/refused',
  'content-type/empty-body',
  'content-type/accepted',
  'content-type/too-large',
  'content-type/custom-limit',
  // headers-suite.ts
  'headers/no-store',
  'headers/json-errors',
  'headers/unknown-path',
  'headers/wrong-method',
  'headers/outside-prefix',
  // throttle-suite.ts
  'throttle/login',
  'throttle/login-failures',
  'throttle/refresh-before-decode',
  'throttle/content-type-first',
  'throttle/csrf-first',
  'throttle/ipv6-prefix',
  'throttle/login-account',
  'throttle/login-account-resolved',
  'throttle/login-network',
  'throttle/off',
  // client-ip-suite.ts
  'client-ip/peer',
  'client-ip/untrusted-peer',
  'client-ip/trusted-proxy',
  'client-ip/right-to-left',
  'client-ip/malformed',
  'client-ip/not-persisted',
  // geolocation-suite.ts
  'geolocation/once-per-login',
  'geolocation/non-routable',
  'geolocation/failure',
  // faults-suite.ts
  'faults/store-down',
  'faults/store-budget',
  'faults/limiter-down',
  // hostile-input-suite.ts
  'hostile/login-bodies',
  'hostile/non-utf8',
  'hostile/refresh-bodies',
  'hostile/headers',
  'hostile/session-ids',
  // contract-details-suite.ts
  'details/refresh-without-token',
  'details/delete-any-id',
  'details/all-hops-trusted',
  'details/session-never-ages-out',
  'details/lifetime-cap',
  'details/length-settings',
  // one-answer-suite.ts
  'one-answer/authorization-comma',
  'one-answer/duplicate-user-agent',
  'one-answer/dot-segments',
  'one-answer/absolute-form',
  'one-answer/optional-guard',
  'one-answer/options-to-host',
  'one-answer/aborted-upload',
  'one-answer/prechecks-before-password',
  // password-change-suite.ts
  'password/change',
  'password/wrong-current',
  'password/bad-input',
  'password/needs-access-token',
  'password/throttled',
  // events-suite.ts
  'events/lifecycle',
  'events/handler-failure',
  'events/handlers-independent',
  'events/slow-store',
  'events/payload-privacy',
  // idle-suite.ts
  'idle/guard-refresh-list',
  'idle/refresh-is-activity',
  'idle/off-by-default',
  // remember-suite.ts
  'remember/short-session-cookie',
  'remember/default-unchanged',
  'remember/invalid-type',
  // key-rotation-suite.ts
  'keys/rotation-no-sign-out',
  'keys/jwks',
  // mount-suite.ts
  'mount/cookie-flow',
  'mount/dpop',
] as const;

/** One test of the HTTP suite, e.g. `'csrf/origin'`. */
export type AdapterTestId = (typeof ADAPTER_TEST_IDS)[number];

type TopicOf<Id extends string> = Id extends `${infer Topic}/${string}` ? `${Topic}/` : never;

/** Every test of one topic, e.g. `'csrf/'`. */
export type AdapterTestTopic = TopicOf<AdapterTestId>;

/** What `options.skip` of `describeAdapterConformance` takes: test ids and topics. */
export type AdapterSkipEntry = AdapterTestId | AdapterTestTopic;
