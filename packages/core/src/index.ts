// The public API of @sessauth/core. Everything not listed here is internal.

// Engine
export { createSessauth } from './create-sessauth.js';
export type { Sessauth, SessauthConfig, AuthContext, AuthenticateInput } from './sessauth.js';
export type { SessionApi } from './session/session-api.js';
export type { CreatedSession, CreateSessionForInput } from './session/create-session-for.js';

// Settings
export type { SessauthOptions, ResolvedOptions, RateSpec, SigningAlgorithm, RefreshTokenTransport } from './options/options.js';
export { resolveOptions } from './options/resolve-options.js';
export { settingsFromEnv } from './options/settings-from-env.js';

// Errors
export type { ErrorCode } from './errors/error-codes.js';
export { ERROR_STATUS } from './errors/error-codes.js';
export { SessauthError, StoreUnavailableError, SettingsError, RequestAbortedError, IntegrationError } from './errors/sessauth-error.js';
export { StoreSchemaError, type StoreSchemaProblem } from './errors/store-schema-error.js';

// Framework-neutral HTTP shape (also on `@sessauth/core/adapter`, its home for adapter authors)
export type { SessauthRequest, SessauthResponse, RequestHeaders } from './http/sessauth-request.js';
export { readLimitedStream } from './http/read-limited-stream.js';

// Storage and rate-limit ports, and the in-memory reference implementations
export type {
  SessionStore,
  SessionRecord,
  NewSession,
  CreateSessionInput,
  ExpireAllOptions,
  RotateRefreshInput,
  RotateOutcome,
  AdminSessionQuery,
  AdminSessionPage,
  RateLimitStore,
} from './store/store-port.js';
export { MemorySessionStore } from './store/memory-store.js';
export { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store.js';
export type { RateLimitResult } from './rate-limit/rate-limit-api.js';
export { normaliseUsername } from './rate-limit/account-rate-key.js';
export { encodeAdminCursor, decodeAdminCursor } from './store/admin-cursor.js';
export { isActive } from './session/session-state.js';
export { toPublicSession } from './session/to-public-session.js';
export type { PublicSession, TokenResponseBody, CsrfResponseBody, ErrorResponseBody } from './wire-types.js';

// Users, login flows, passwords
export type { UserPort, Authenticator, AuthenticatorContext } from './users/user-port.js';
export type { SetPassword } from './routes/change-password.js';
export type { PasswordHasher, PasswordHasherDescription } from './password/password-hasher.js';
export { createPasswordAuthenticator } from './password/password-authenticator.js';

// Geolocation
export type { Location, GeolocationProvider } from './geo/location.js';

// Client facts
export { describeUserAgent } from './ua/describe-user-agent.js';
export { normalizeIp } from './net/ip-address.js';

// Session lifecycle events
export type {
  SessauthEventMap,
  SessauthEventName,
  SessauthEventHandler,
  SessauthEventHandlers,
  LoginEvent,
  LoginFailedEvent,
  RefreshEvent,
  RevokeEvent,
  RevokeReason,
  ReuseDetectedEvent,
} from './events/session-events.js';

// Time and logs
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export type { Logger, LogLevel } from './logger.js';
export { consoleLogger, createConsoleLogger } from './logger.js';

// Admin listing (served by `handle` under `adminPrefix`; `createAdminListing` for a host's own admin login)
export { createAdminListing, type AdminListingOptions, type AdminListingRequest } from './admin/host-listing.js';
export type { AdminSessionJson, AdminSessionStatus } from './admin/session-view.js';

// Built-in HTTPS geolocation provider (the offline one is on `@sessauth/core/mmdb`)
export { createIpapiProvider, type IpapiProviderOptions } from './geo/ipapi-provider.js';
