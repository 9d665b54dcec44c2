export type RouteName = 'csrf' | 'login' | 'refresh' | 'list-sessions' | 'logout' | 'logout-all' | 'jwks';

export type RouteMatch =
  | { readonly kind: 'route'; readonly route: RouteName }
  | { readonly kind: 'route'; readonly route: 'delete-session'; readonly sessionId: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'not-ours' };

const FIXED: Readonly<Record<string, { method: string; route: RouteName }>> = {
  '/csrf': { method: 'GET', route: 'csrf' },
  '/login': { method: 'POST', route: 'login' },
  '/refresh': { method: 'POST', route: 'refresh' },
  '/sessions': { method: 'GET', route: 'list-sessions' },
  '/logout': { method: 'POST', route: 'logout' },
  '/logout/all': { method: 'POST', route: 'logout-all' },
  // The verifying public keys (asymmetric algorithms), at both places verifiers look.
  '/jwks.json': { method: 'GET', route: 'jwks' },
  '/.well-known/jwks.json': { method: 'GET', route: 'jwks' },
};

// Any id at all: the route answers a malformed one like an unknown one, after authentication.
const SESSION_ID = /^\/sessions\/([^/]+)$/;

/**
 * Maps method + path to one of the seven endpoints. Paths are the contract's, with
 * the trailing slash optional. Anything else under the prefix is ours to refuse (404),
 * anything outside it goes back to the host.
 */
export function matchRoute(method: string, path: string, prefix: string): RouteMatch {
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return { kind: 'not-ours' };
  let rest = path.slice(prefix.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const fixed = FIXED[rest];
  if (fixed) {
    return method === fixed.method ? { kind: 'route', route: fixed.route } : { kind: 'method-not-allowed', allow: fixed.method };
  }
  const byId = SESSION_ID.exec(rest);
  if (byId) {
    return method === 'DELETE'
      ? { kind: 'route', route: 'delete-session', sessionId: byId[1]! }
      : { kind: 'method-not-allowed', allow: 'DELETE' };
  }
  return { kind: 'not-found' };
}
