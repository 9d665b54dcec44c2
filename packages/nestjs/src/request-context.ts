import { IntegrationError, type AuthContext } from '@sessauth/core';

// Where SessauthGuard leaves its answer on the platform's request object (Express's req or
// Fastify's request, the object Nest hands to guards and parameter decorators alike).
const CONTEXT = Symbol('sessauth.nest.context');
type Guarded = { [CONTEXT]?: AuthContext<unknown> | null };

/** Records the guard's result: the caller's context, or null for an anonymous request on an `@OptionalAuth()` route. */
export function setRequestContext(request: object, context: AuthContext<unknown> | null): void {
  (request as Guarded)[CONTEXT] = context;
}

/**
 * The context the guard recorded: null on an `@OptionalAuth()` route without a user (and on a
 * `@Public()` route); throws on a route SessauthGuard did not run on, so a forgotten guard is
 * a loud error, never an anonymous caller taken for a user.
 */
export function requestContextOf(request: object, decorator: string): AuthContext<unknown> | null {
  const context = (request as Guarded)[CONTEXT];
  if (context === undefined) {
    throw new IntegrationError(`${decorator}: this route is not behind SessauthGuard (@UseGuards(SessauthGuard), or forRoot({ globalGuard: true }))`);
  }
  return context;
}

/** The context an earlier run of the guard left on this request (a global guard and `@UseGuards` both), or undefined. */
export function earlierContextOf(request: object): AuthContext<unknown> | null | undefined {
  return (request as Guarded)[CONTEXT];
}
