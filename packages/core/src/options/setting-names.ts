import type { SessauthOptions } from './options.js';

/**
 * The `JWT_*` environment name of every option. `settingsFromEnv` reads these names and
 * `resolveOptions` names them in its `SettingsError`s, so operators see the name they set.
 */
export const SETTING_NAMES = {
  secretKey: 'JWT_SECRET_KEY',
  verifyingKey: 'JWT_VERIFYING_KEY',
  previousSecretKeys: 'JWT_PREVIOUS_SECRET_KEYS',
  previousVerifyingKeys: 'JWT_PREVIOUS_VERIFYING_KEYS',
  securityStampKey: 'JWT_SECURITY_STAMP_KEY',
  algorithm: 'JWT_ALGORITHM',
  issuer: 'JWT_ISSUER',
  audience: 'JWT_AUDIENCE',
  accessTokenExpireSeconds: 'JWT_ACCESS_TOKEN_EXPIRE_SECONDS',
  refreshTokenExpireSeconds: 'JWT_REFRESH_TOKEN_EXPIRE_SECONDS',
  sessionExpireSeconds: 'JWT_SESSION_EXPIRE_SECONDS',
  shortSessionExpireSeconds: 'JWT_SHORT_SESSION_EXPIRE_SECONDS',
  leewaySeconds: 'JWT_LEEWAY_SECONDS',
  maxActiveSessions: 'JWT_MAX_ACTIVE_SESSIONS',
  refreshTokenReuseGraceSeconds: 'JWT_REFRESH_TOKEN_REUSE_GRACE_SECONDS',
  refreshTokenTransport: 'JWT_REFRESH_TOKEN_TRANSPORT',
  refreshCookieName: 'JWT_REFRESH_COOKIE_NAME',
  refreshCookiePath: 'JWT_REFRESH_COOKIE_PATH',
  refreshCookieDomain: 'JWT_REFRESH_COOKIE_DOMAIN',
  refreshCookieSecure: 'JWT_REFRESH_COOKIE_SECURE',
  refreshCookieHttpOnly: 'JWT_REFRESH_COOKIE_HTTPONLY',
  refreshCookieSameSite: 'JWT_REFRESH_COOKIE_SAMESITE',
  csrfCookieName: 'JWT_CSRF_COOKIE_NAME',
  csrfCookieSecure: 'JWT_CSRF_COOKIE_SECURE',
  csrfTrustedOrigins: 'JWT_CSRF_TRUSTED_ORIGINS',
  allowedHosts: 'JWT_ALLOWED_HOSTS',
  loginThrottleRate: 'JWT_LOGIN_THROTTLE_RATE',
  refreshThrottleRate: 'JWT_REFRESH_THROTTLE_RATE',
  loginAccountThrottleRate: 'JWT_LOGIN_ACCOUNT_THROTTLE_RATE',
  throttleIpv6Prefix: 'JWT_THROTTLE_IPV6_PREFIX',
  trustedProxyCidrs: 'JWT_TRUSTED_PROXY_CIDRS',
  persistClientIp: 'JWT_PERSIST_CLIENT_IP',
  maxUsernameLength: 'JWT_MAX_USERNAME_LENGTH',
  maxPasswordLength: 'JWT_MAX_PASSWORD_LENGTH',
  maxTokenLength: 'JWT_MAX_TOKEN_LENGTH',
  maxForwardedHeaderLength: 'JWT_MAX_FORWARDED_HEADER_LENGTH',
  maxForwardedHops: 'JWT_MAX_FORWARDED_HOPS',
  maxBodyBytes: 'JWT_MAX_BODY_BYTES',
  geolocationTimeoutMs: 'JWT_GEOLOCATION_TIMEOUT_MS',
  storeBudgetMs: 'JWT_STORE_BUDGET_MS',
  activityUpdateIntervalSeconds: 'JWT_ACTIVITY_UPDATE_INTERVAL_SECONDS',
  sessionIdleSeconds: 'JWT_SESSION_IDLE_SECONDS',
  prefix: 'JWT_AUTH_PREFIX',
  adminPrefix: 'JWT_ADMIN_PREFIX',
  // A function: code only, no environment name.
  customClaims: 'customClaims',
} as const satisfies Record<keyof SessauthOptions, string>;

export type SettingKey = keyof typeof SETTING_NAMES;
