// @sessauth/core: what a host app imports. Store authors add `@sessauth/core/store`, adapter
// authors `@sessauth/core/adapter`; everything not listed on an entry is internal.

// Engine
export { createSessauth } from './engine/create-sessauth.js';
export type { Sessauth, SessauthConfig, AuthContext, AuthenticateInput, FreshnessRule, GuardRequest } from './engine/sessauth.js';
export type { AuthenticationFacts } from './sessions/step-up.js';
export type { SessionApi } from './engine/session-api.js';
export type { CreatedSession, CreateSessionForInput } from './engine/create-session-for.js';
export type { RateLimitResult } from './engine/rate-limit-api.js';
export type {
  SessauthInstrumentation,
  InstrumentedOperation,
  OperationOutcome,
  OutcomeReporter,
  StoreRole,
} from './engine/instrumentation.js';

// Settings
export type { SessauthOptions, ResolvedOptions, RateSpec, SigningAlgorithm, RefreshTokenTransport, DpopMode } from './options/options.js';
export { resolveOptions } from './options/resolve-options.js';
export { settingsFromEnv } from './options/settings-from-env.js';

// Errors (classes live on this entry only, so `instanceof` holds for every importer)
export type { ErrorCode } from './errors/error-codes.js';
export { ERROR_STATUS } from './errors/error-codes.js';
export { SessauthError, StoreUnavailableError, SettingsError, RequestAbortedError, IntegrationError } from './errors/sessauth-error.js';
export { DpopProofError, DpopBindingError } from './errors/dpop-error.js';
export { StoreSchemaError, type StoreSchemaProblem } from './errors/store-schema-error.js';

// The stores a host picks (the port itself is on `@sessauth/core/store`)
export type { SessionStore, SessionRecord, RateLimitStore } from './store/store-port.js';
export { MemorySessionStore } from './store/memory-store.js';
export { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store.js';

// The JSON bodies of the endpoints
export type { PublicSession, PublicActivityEntry, TokenResponseBody, CsrfResponseBody, ErrorResponseBody } from './http/wire-types.js';

// Users, login flows, passwords
export type { UserPort, Authenticator, AuthenticatorContext } from './users/user-port.js';
export type { SetPassword } from './endpoints/change-password.js';
export type { PasswordHasher, PasswordHasherDescription, PasswordCheckOptions } from './users/password-hasher.js';
export type { TurnTiming } from './password/concurrency-limit.js';
export { createPasswordAuthenticator } from './password/password-authenticator.js';

// Geolocation (the offline provider is on `@sessauth/core/mmdb`)
export type { Location, GeolocationProvider } from './geo/location.js';
export { createIpapiProvider, type IpapiProviderOptions } from './geo/ipapi-provider.js';

// Session lifecycle events
export type {
  SessauthEventMap,
  SessauthEventName,
  SessauthEventHandler,
  SessauthEventHandlers,
  LoginEvent,
  LoginFailedEvent,
  StepUpEvent,
  RefreshEvent,
  RevokeEvent,
  RevokeReason,
  ReuseDetectedEvent,
  RiskSignal,
  RiskSignalEvent,
} from './events/session-events.js';

// Time and logs
export type { Clock } from './time/clock.js';
export { systemClock } from './time/clock.js';
export type { Logger, LogLevel } from './log/logger.js';
export { consoleLogger, createConsoleLogger } from './log/logger.js';
export type { LogFields } from './log/logger.js';
export { fromNestLogger, type NestLoggerLike } from './log/nest-logger.js';
export { fromPino, type PinoLike } from './log/pino-logger.js';
export { fromWinston, type WinstonLike } from './log/winston-logger.js';

// Admin listing (served by `handle` under `adminPrefix`; `createAdminListing` for a host's own admin login)
export { createAdminListing, type AdminListingOptions, type AdminListingRequest } from './admin/host-listing.js';
export type { AdminSessionJson, AdminSessionStatus } from './admin/session-view.js';
