export { reachService } from './reach-service.js';
export {
  describeStoreConformance,
  type StoreConformanceOptions,
  type StoreInstance,
  type StoreTestId,
  type StoreUnderTest,
} from './store/describe-store-conformance.js';
export { newSessionFixture, nextRotation, randomHex } from './store/session-fixtures.js';
export { everyStoreCall, expectEveryStoreCallUnavailable, type StoreCall } from './store/every-store-call.js';
export {
  describeRateLimitConformance,
  type RateLimitStoreUnderTest,
} from './rate-limit/describe-rate-limit-conformance.js';
export { describeAdapterConformance } from './http/describe-adapter-conformance.js';
export { ADAPTER_TEST_IDS, type AdapterSkipEntry, type AdapterTestId, type AdapterTestTopic } from './http/adapter-test-ids.js';
export { serveOnLoopback } from './http/serve-on-loopback.js';
export { FRESH_ROUTE_RULE } from './http/step-up-suite.js';
export type {
  AdapterConformanceInput,
  AdapterConformanceOptions,
  AppUnderTest,
  ConformanceHost,
  ConformanceUser,
  MountApp,
  RateLimitStoreFactory,
  RemoteApp,
  RemoteAppSetup,
  StartRemoteApp,
  StoreFactory,
  TestAppAuth,
} from './http/conformance-types.js';
export type { TestAppExtras } from './http/conformance-app.js';
export { userPortOver, type UserTable } from './http/conformance-users.js';
export { CapturingLogger } from './http/capturing-logger.js';
export { CookieJar, parseSetCookie, type ParsedSetCookie } from './http/cookie-jar.js';
export { TestClock } from './http/test-clock.js';
export { createAdapterTestEngine, type AdapterTestUser } from './http/adapter-test-engine.js';
export { makeDpopKey, signProof, athOf, type DpopKey, type ProofClaims, type ProofAlgorithm } from './http/dpop-client.js';
