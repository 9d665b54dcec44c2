import { ROUTE_TABLE, type RouteName, type SessionIdRouteName } from '../endpoints/endpoints.js';

export type { RouteName } from '../endpoints/endpoints.js';

export type RouteMatch =
  | { readonly kind: 'route'; readonly route: Exclude<RouteName, SessionIdRouteName> }
  | { readonly kind: 'route'; readonly route: SessionIdRouteName; readonly sessionId: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'not-ours' };

/** One path of the route table with the routes of each of its methods. */
interface PathRoutes {
  readonly byMethod: ReadonlyMap<string, RouteName>;
  /** The `Allow` header of a 405 on this path. */
  readonly allow: string;
}

// Any id at all: the routes answer a malformed one like an unknown one, after authentication.
const ID_SEGMENT = '{id}';
const SESSION_ID_ROUTES: ReadonlySet<RouteName> = new Set(ROUTE_TABLE.filter((e) => e.path.includes(ID_SEGMENT)).map((e) => e.route));

function isSessionIdRoute(route: RouteName): route is SessionIdRouteName {
  return SESSION_ID_ROUTES.has(route);
}

function groupByPath(): Map<string, PathRoutes> {
  const methods = new Map<string, Map<string, RouteName>>();
  for (const { route, method, path } of ROUTE_TABLE) {
    const byMethod = methods.get(path) ?? new Map<string, RouteName>();
    byMethod.set(method, route);
    methods.set(path, byMethod);
  }
  return new Map([...methods].map(([path, byMethod]) => [path, { byMethod, allow: [...byMethod.keys()].join(', ') }]));
}

const BY_PATH = groupByPath();
const FIXED = new Map([...BY_PATH].filter(([path]) => !path.includes(ID_SEGMENT)));
const WITH_ID = [...BY_PATH]
  .filter(([path]) => path.includes(ID_SEGMENT))
  .map(([path, routes]) => {
    const [before = '', after = ''] = path.split(ID_SEGMENT).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return { pattern: new RegExp(`^${before}([^/]+)${after}$`), routes };
  });

/**
 * Maps method + path to one of the endpoints of the route table. Paths are the contract's,
 * with the trailing slash optional. Anything else under the prefix is ours to refuse (404),
 * anything outside it goes back to the host.
 */
export function matchRoute(method: string, path: string, prefix: string): RouteMatch {
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return { kind: 'not-ours' };
  let rest = path.slice(prefix.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const fixed = FIXED.get(rest);
  if (fixed) {
    const route = fixed.byMethod.get(method);
    if (route === undefined) return { kind: 'method-not-allowed', allow: fixed.allow };
    // A fixed path holds no id; the table's types cannot say so per entry.
    return isSessionIdRoute(route) ? { kind: 'not-found' } : { kind: 'route', route };
  }
  for (const { pattern, routes } of WITH_ID) {
    const id = pattern.exec(rest)?.[1];
    if (id === undefined) continue;
    const route = routes.byMethod.get(method);
    if (route === undefined) return { kind: 'method-not-allowed', allow: routes.allow };
    return isSessionIdRoute(route) ? { kind: 'route', route, sessionId: id } : { kind: 'not-found' };
  }
  return { kind: 'not-found' };
}
