import { isSecureRequest, ownHost } from './client-identity.js';
import { routablePath } from './request-target.js';
import type { SessauthRequest } from './sessauth-request.js';
import type { WireContext } from './wire-context.js';

/** The facts of a request that name its URI: what a DPoP proof's `htm` and `htu` are checked against. */
export type RequestUriFacts = Pick<SessauthRequest, 'method' | 'path' | 'headers' | 'peerAddress' | 'secure'>;

/**
 * The URI the client sent this request to, as RFC 9449's `htu` names it: the scheme as the
 * client saw it (TLS, or a trusted proxy's X-Forwarded-Proto), the `Host` (one of
 * JWT_ALLOWED_HOSTS when that is set) and the full path (under the framework's mount, as the
 * adapters pass it), without query. Undefined without a usable `Host`: no proof can match then.
 */
export function requestUri(wire: WireContext, request: RequestUriFacts): string | undefined {
  const host = ownHost(wire, request);
  if (host === undefined || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return undefined;
  const query = request.path.indexOf('?');
  const path = routablePath(query === -1 ? request.path : request.path.slice(0, query));
  if (!path.startsWith('/')) return undefined;
  return `${isSecureRequest(wire, request) ? 'https' : 'http'}://${host}${path}`;
}
