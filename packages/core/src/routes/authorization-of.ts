import { headerValues } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';
import type { AuthenticateInput } from '../sessauth.js';

export function authorizationOf(request: SessauthRequest): AuthenticateInput {
  return { authorization: headerValues(request.headers, 'authorization') };
}
