import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { AuthContext } from '../sessions/authenticate.js';
import type { Engine } from './engine.js';

export type EndpointMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One request as an endpoint receives it. */
export interface EndpointCall<U> {
  readonly engine: Engine<U>;
  readonly request: SessauthRequest;
  /** The `{id}` segment of the path (any text: the endpoint decides what a malformed one means); '' on other paths. */
  readonly sessionId: string;
}

/** A call of a Bearer endpoint: the dispatcher ran the guard first, so every failure of it comes before the endpoint's own checks. */
export interface BearerCall<U> extends EndpointCall<U> {
  readonly caller: AuthContext<U>;
}

interface EndpointRoute {
  /** The endpoint's name (the OpenAPI operation and its docs entry are keyed by it). */
  readonly route: string;
  readonly method: EndpointMethod;
  /** Under the prefix, without the trailing slash (optional on the wire); `{id}` is a session id segment. */
  readonly path: string;
  /**
   * Whether this host can serve the endpoint at all (an optional store operation, an optional
   * method of the users port). False: the dispatcher answers 404 `not_found` before anything
   * else, the guard included, exactly as for a path that is not ours. Absent: always served.
   */
  available?<U>(engine: Engine<U>): boolean;
}

/** An endpoint anyone may call (it runs its own pre-checks). */
export interface PublicEndpoint extends EndpointRoute {
  readonly auth: 'none';
  handle<U>(call: EndpointCall<U>): SessauthResponse | Promise<SessauthResponse>;
}

/** An endpoint of a signed-in caller: `Authorization: Bearer <access token>`. */
export interface BearerEndpoint extends EndpointRoute {
  readonly auth: 'bearer';
  handle<U>(call: BearerCall<U>): SessauthResponse | Promise<SessauthResponse>;
}

/** One endpoint, declared once: the router, the dispatcher and the OpenAPI description read it. */
export type Endpoint = PublicEndpoint | BearerEndpoint;
