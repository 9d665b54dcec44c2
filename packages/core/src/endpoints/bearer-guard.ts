import { bearerToken } from '../http/bearer-token.js';
import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import { type AuthContext, authenticate } from '../sessions/authenticate.js';
import type { Engine } from './engine.js';

/** Input of the per-request guard: just the headers it needs, no body, no Request. */
export interface AuthenticateInput {
  /** Every `Authorization` header value received (more than one fails closed). */
  readonly authorization: readonly string[] | undefined;
}

/** The guard of host routes (`auth.authenticate`): the Bearer token of the headers, then the session domain's check. */
export async function authenticateBearer<U>(engine: Engine<U>, input: AuthenticateInput): Promise<AuthContext<U>> {
  return authenticate(engine, bearerToken(input.authorization));
}

/** The guard of the endpoints that take a Bearer token (the list, DELETE, PATCH, the logouts). */
export function authenticateRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<AuthContext<U>> {
  return authenticateBearer(engine, { authorization: headerValues(request.headers, 'authorization') });
}
