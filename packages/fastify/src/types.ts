import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AuthContext } from '@sessauth/core';

/**
 * Augment this to type `request.auth.user` with your own user:
 * `declare module '@sessauth/fastify' { interface SessauthFastifyTypes { user: MyUser } }`.
 */
// An interface, not a type alias: only an interface can be augmented (declaration merging).
// biome-ignore lint/suspicious/noEmptyInterface: empty until the host augments it
export interface SessauthFastifyTypes {}

/** The user type of `request.auth`: `SessauthFastifyTypes['user']`, else `unknown`. */
export type SessauthUser = SessauthFastifyTypes extends { user: infer U } ? U : unknown;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The authenticated user and session: set behind `requireAuth`, null elsewhere (and
     * for an anonymous request behind `optionalAuth`). `getAuth(request)` gives it non-null.
     */
    auth: AuthContext<SessauthUser> | null;
  }
  interface FastifyInstance {
    /** preHandler for host routes: sets `request.auth`, or answers the core's 401. */
    requireAuth: preHandlerAsyncHookHandler;
    /**
     * preHandler for routes that work with or without a user: no `Authorization` (and, with
     * JWT_ACCESS_TOKEN_COOKIE on, no access-token cookie, or one that no longer authenticates)
     * leaves `request.auth` null; a cookie-authenticated unsafe request without its CSRF token is the core's 403.
     */
    optionalAuth: preHandlerAsyncHookHandler;
  }
}
