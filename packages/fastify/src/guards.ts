import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { IntegrationError, type AuthContext, type AuthenticateInput, type FreshnessRule, type Sessauth } from '@sessauth/core';
import { guardInput } from '@sessauth/node-http';
import type { SessauthUser } from './types.js';
import { sendSessauthResponse } from './write-response.js';

/** The preHandlers the plugin decorates the host with: `requireAuth` and `optionalAuth`. */
export function guardsOf(auth: Sessauth<SessauthUser>): { requireAuth: preHandlerAsyncHookHandler; optionalAuth: preHandlerAsyncHookHandler } {
  const guard =
    (check: (input: AuthenticateInput) => Promise<AuthContext<SessauthUser> | null>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        request.auth = await check(guardInput(auth, request.raw));
      } catch (error) {
        return sendSessauthResponse(reply, auth.errorResponse(error));
      }
    };
  return { requireAuth: guard((input) => auth.authenticate(input)), optionalAuth: guard((input) => auth.authenticateOptional(input)) };
}

/**
 * A preHandler for a sensitive route (RFC 9470): `app.requireAuth`, and also refuses a session
 * whose last sign-in or step-up is older than `rule.maxAgeSeconds` (or did not reach `rule.acr`)
 * with the core's 401 `insufficient_user_authentication` and its `WWW-Authenticate` challenge.
 * `{ preHandler: requireFresh(auth, { maxAgeSeconds: 600 }) }`; `request.auth` as usual.
 */
export function requireFresh<U extends SessauthUser>(auth: Sessauth<U>, rule: FreshnessRule): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const context = await auth.authenticate(guardInput(auth, request.raw));
      auth.assertFresh(context, rule);
      request.auth = context;
    } catch (error) {
      return sendSessauthResponse(reply, auth.errorResponse(error));
    }
  };
}

/** `request.auth` behind `requireAuth`, typed non-null; throws on a route that is not guarded. */
export function getAuth(request: FastifyRequest): AuthContext<SessauthUser> {
  if (request.auth === null) throw new IntegrationError('getAuth: this route is not behind app.requireAuth');
  return request.auth;
}

/** @deprecated Renamed `getAuth` (the name every adapter uses); `authOf` goes in the next minor. */
export function authOf(request: FastifyRequest): AuthContext<SessauthUser> {
  return getAuth(request);
}
