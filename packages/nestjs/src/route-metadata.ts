import { SetMetadata } from '@nestjs/common';
import type { FreshnessRule } from '@sessauth/core';

/** The metadata key of `@Public()`. */
export const SESSAUTH_PUBLIC = 'sessauth:public';
/** The metadata key of `@OptionalAuth()`. */
export const SESSAUTH_OPTIONAL = 'sessauth:optional';
/** The metadata key of `@Fresh(...)`. */
export const SESSAUTH_FRESH = 'sessauth:fresh';

/**
 * The route (or every route of the controller) needs no access token: `SessauthGuard` lets every
 * request through without reading the `Authorization` header. For a global guard's exceptions.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(SESSAUTH_PUBLIC, true);

/**
 * The route works with or without a user: no `Authorization` header (and, with
 * JWT_ACCESS_TOKEN_COOKIE on, no access-token cookie, or one that no longer authenticates) goes
 * on with no user (`@CurrentSession()` / `@CurrentUser()` give null); a bad or expired Bearer
 * token is the core's 401, a cookie-authenticated unsafe request without its CSRF token the core's 403.
 */
export const OptionalAuth = (): MethodDecorator & ClassDecorator => SetMetadata(SESSAUTH_OPTIONAL, true);

/**
 * A sensitive route (RFC 9470 step-up): also refuses a session whose last sign-in or step-up is
 * older than `maxAgeSeconds` (or, with a rule, did not reach `rule.acr`) with the core's 401
 * `insufficient_user_authentication` and its `WWW-Authenticate` challenge. The client steps up
 * (`POST {prefix}/reauthenticate/`, see docs/step-up.md) and retries.
 */
export const Fresh = (rule: number | FreshnessRule): MethodDecorator & ClassDecorator =>
  SetMetadata<string, FreshnessRule>(SESSAUTH_FRESH, typeof rule === 'number' ? { maxAgeSeconds: rule } : rule);
