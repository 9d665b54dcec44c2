/**
 * The endpoints under the prefix, declared once: the router matches requests against this
 * list and the OpenAPI description (`@sessauth/core/openapi`) documents every entry of it, so
 * a route added here without a description fails a test instead of going undocumented.
 * Paths are the contract's without the trailing slash (optional on the wire); `{id}` is a
 * session id segment.
 */
export const ROUTE_TABLE = [
  { route: 'csrf', method: 'GET', path: '/csrf' },
  { route: 'login', method: 'POST', path: '/login' },
  { route: 'refresh', method: 'POST', path: '/refresh' },
  { route: 'list-sessions', method: 'GET', path: '/sessions' },
  { route: 'delete-session', method: 'DELETE', path: '/sessions/{id}' },
  { route: 'rename-session', method: 'PATCH', path: '/sessions/{id}' },
  { route: 'logout', method: 'POST', path: '/logout' },
  { route: 'logout-all', method: 'POST', path: '/logout/all' },
  // The verifying public keys (asymmetric algorithms), at both places verifiers look.
  { route: 'jwks', method: 'GET', path: '/jwks.json' },
  { route: 'jwks', method: 'GET', path: '/.well-known/jwks.json' },
] as const satisfies readonly RouteEntry[];

interface RouteEntry {
  readonly route: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
}

type Entry = (typeof ROUTE_TABLE)[number];

/** Every endpoint's name. */
export type RouteName = Entry['route'];

/** The endpoints addressed by a session id (`/sessions/{id}`). */
export type SessionIdRouteName = Extract<Entry, { path: `${string}{id}${string}` }>['route'];
