/** What the router needs of an entry of the table it is handed. */
export interface RouteEntry {
  readonly route: string;
  readonly method: string;
  /** Under the prefix, without the trailing slash; `{id}` matches one path segment (a session id). */
  readonly path: string;
}

export type RouteMatch<R extends string> =
  | {
      readonly kind: 'route';
      readonly route: R;
      /** The matched path as declared, under the prefix, without the trailing slash (`/sessions/{id}`). */
      readonly template: string;
      readonly sessionId?: string;
    }
  | { readonly kind: 'method-not-allowed'; readonly allow: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'not-ours' };

/** One path of the table with the routes of each of its methods. */
interface PathRoutes<R extends string> {
  readonly byMethod: ReadonlyMap<string, R>;
  /** The `Allow` header of a 405 on this path. */
  readonly allow: string;
}

// Any id at all: the endpoints answer a malformed one like an unknown one, after authentication.
const ID_SEGMENT = '{id}';

/**
 * A matcher of method + path against `table`. Paths are the table's under `prefix`, with the
 * trailing slash optional. Anything else under the prefix is ours to refuse (404, or 405 with
 * `Allow` on a known path), anything outside it goes back to the host.
 */
export function createRouter<E extends RouteEntry>(table: readonly E[]): (method: string, path: string, prefix: string) => RouteMatch<E['route']> {
  const byPath = new Map<string, Map<string, E['route']>>();
  for (const { route, method, path } of table) {
    const byMethod = byPath.get(path) ?? new Map<string, E['route']>();
    byMethod.set(method, route);
    byPath.set(path, byMethod);
  }
  const grouped = [...byPath].map(([path, byMethod]): [string, PathRoutes<E['route']>] => [
    path,
    { byMethod, allow: [...byMethod.keys()].join(', ') },
  ]);
  const fixed = new Map(grouped.filter(([path]) => !path.includes(ID_SEGMENT)));
  const withId = grouped
    .filter(([path]) => path.includes(ID_SEGMENT))
    .map(([path, routes]) => {
      const [before = '', after = ''] = path.split(ID_SEGMENT).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return { pattern: new RegExp(`^${before}([^/]+)${after}$`), template: path, routes };
    });

  return (method, path, prefix) => {
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return { kind: 'not-ours' };
    let rest = path.slice(prefix.length);
    if (rest.endsWith('/')) rest = rest.slice(0, -1);
    const exact = fixed.get(rest);
    if (exact) {
      const route = exact.byMethod.get(method);
      return route === undefined ? { kind: 'method-not-allowed', allow: exact.allow } : { kind: 'route', route, template: rest };
    }
    for (const { pattern, template, routes } of withId) {
      const id = pattern.exec(rest)?.[1];
      if (id === undefined) continue;
      const route = routes.byMethod.get(method);
      return route === undefined ? { kind: 'method-not-allowed', allow: routes.allow } : { kind: 'route', route, template, sessionId: id };
    }
    return { kind: 'not-found' };
  };
}
