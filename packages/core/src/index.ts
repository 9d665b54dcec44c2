// The public API of @sessauth/core. Everything not listed here is internal.

// Engine
export { createSessauth } from './create-sessauth.js';
export type { Sessauth, SessauthConfig, AuthContext, AuthenticateInput } from './sessauth.js';

// Settings
export type { SessauthOptions, ResolvedOptions, RateSpec, SigningAlgorithm, RefreshTokenTransport } from './options/options.js';
export { resolveOptions } from './options/resolve-options.js';
export { settingsFromEnv } from './options/settings-from-env.js';

// Errors
export type { ErrorCode } from './errors/error-codes.js';
export { ERROR_STATUS } from './errors/error-codes.js';
export { SessauthError, StoreUnavailableError, SettingsError } from './errors/sessauth-error.js';

// Framework-neutral HTTP shape (what adapters translate)
export type { SessauthRequest, SessauthResponse, RequestHeaders, SetCookie } from './http/sessauth-request.js';
export { headersFromRawList } from './http/request-headers.js';
export { readLimitedStream } from './http/read-limited-stream.js';

// Storage and rate-limit ports, and the in-memory reference implementations
export type {
  SessionStore,
  SessionRecord,
  NewSession,
  CreateSessionInput,
  RotateRefreshInput,
  RotateOutcome,
  AdminSessionQuery,
  AdminSessionPage,
  RateLimitStore,
} from './store/store-port.js';
export { MemorySessionStore } from './store/memory-store.js';
export { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store.js';
export { encodeAdminCursor, decodeAdminCursor } from './store/admin-cursor.js';
export { isActive } from './session/session-state.js';
export { toPublicSession, type PublicSession } from './session/to-public-session.js';

// Users, login flows, passwords
export type { UserPort, Authenticator } from './users/user-port.js';
export type { PasswordHasher } from './password/password-hasher.js';
export { createPasswordAuthenticator } from './password/password-authenticator.js';

// Geolocation
export type { Location, GeolocationProvider } from './geo/location.js';

// Client facts
export { describeUserAgent } from './ua/describe-user-agent.js';
export { normalizeIp } from './net/ip-address.js';

// Time and logs
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export type { Logger } from './logger.js';
export { consoleLogger } from './logger.js';

// Admin listing (served by `handle` under `adminPrefix`; `createAdminListing` for a host's own admin login)
export { createAdminListing, type AdminListingOptions, type AdminListingRequest } from './admin/host-admin-listing.js';
export type { AdminSessionJson, AdminSessionStatus } from './admin/admin-session-view.js';

// Built-in HTTPS geolocation provider (the offline one is on `@sessauth/core/mmdb`)
export { createIpapiProvider, type IpapiProviderOptions } from './geo/ipapi-provider.js';
