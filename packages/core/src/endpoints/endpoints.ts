import { createRouter } from '../http/router.js';
import { csrfEndpoint } from './csrf.js';
import { deleteSessionEndpoint } from './delete-session.js';
import { deviceBoundRefreshEndpoint } from './device-bound-refresh.js';
import { deviceBoundRegistrationEndpoint } from './device-bound-registration.js';
import type { Endpoint } from './endpoint.js';
import { jwksEndpoint, wellKnownJwksEndpoint } from './jwks.js';
import { listSessionsEndpoint } from './list-sessions.js';
import { loginEndpoint } from './login.js';
import { logoutAllEndpoint } from './logout-all.js';
import { logoutOthersEndpoint } from './logout-others.js';
import { logoutEndpoint } from './logout.js';
import { reauthenticateEndpoint } from './reauthenticate.js';
import { refreshEndpoint } from './refresh.js';
import { renameSessionEndpoint } from './rename-session.js';
import { sessionActivityEndpoint } from './session-activity.js';
import { ssfConfigurationEndpoint, ssfStatusEndpoint, ssfStreamsEndpoint, ssfVerifyEndpoint } from './ssf-streams.js';

/**
 * Every endpoint under the prefix, once: the router matches requests against this list, the
 * dispatcher calls the matched entry, and the OpenAPI description (`@sessauth/core/openapi`)
 * documents each (its docs entry is keyed by `route`, and the compiler demands one per route).
 * Adding an endpoint is one file that exports its declaration and one line here.
 */
export const ENDPOINTS = [
  csrfEndpoint,
  loginEndpoint,
  refreshEndpoint,
  listSessionsEndpoint,
  deleteSessionEndpoint,
  renameSessionEndpoint,
  sessionActivityEndpoint,
  logoutEndpoint,
  logoutAllEndpoint,
  logoutOthersEndpoint,
  reauthenticateEndpoint,
  // Device Bound Session Credentials (JWT_DEVICE_BOUND_COOKIES); 404 while it is off.
  deviceBoundRegistrationEndpoint,
  deviceBoundRefreshEndpoint,
  // The verifying public keys (asymmetric algorithms), at both places verifiers look.
  jwksEndpoint,
  wellKnownJwksEndpoint,
  // The Shared Signals transmitter (JWT_SSF_TRANSMITTER); 404 while it is off.
  ssfConfigurationEndpoint,
  ssfStreamsEndpoint,
  ssfStatusEndpoint,
  ssfVerifyEndpoint,
] as const satisfies readonly Endpoint[];

/** Every endpoint's name. */
export type RouteName = (typeof ENDPOINTS)[number]['route'];

/** Matches method + path (under the prefix) against ENDPOINTS. */
export const matchEndpoint = createRouter(ENDPOINTS);

/**
 * The router of an engine without an authenticator: the login path (and the password step-up,
 * which checks a password through it) is a 404 like any unknown path.
 */
export const matchEndpointWithoutLogin = createRouter(
  ENDPOINTS.filter((endpoint) => endpoint.route !== 'login' && endpoint.route !== 'reauthenticate'),
);

const BY_ROUTE: ReadonlyMap<RouteName, Endpoint> = new Map(ENDPOINTS.map((endpoint) => [endpoint.route, endpoint]));

/** The declaration of a route the router matched. */
export function endpointOf(route: RouteName): Endpoint {
  return BY_ROUTE.get(route)!;
}
