import { handleAdminRequest, isAdminPath } from '../admin/route.js';
import { authenticateRequest } from '../endpoints/bearer-guard.js';
import type { Engine } from '../endpoints/engine.js';
import { endpointOf, matchEndpoint, matchEndpointWithoutLogin, type RouteName } from '../endpoints/endpoints.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { isUnder, mountedOptions, resolveMount } from '../http/mount-path.js';
import { routablePath } from '../http/request-target.js';
import { errorToResponse } from '../http/response.js';
import type { RouteMatch } from '../http/router.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { ResolvedOptions } from '../options/options.js';
import { RequestStoreBudget } from '../store/request-store-budget.js';
import { type OutcomeReporter, outcomeOfError, type SessauthInstrumentation } from './instrumentation.js';

/**
 * The API prefix or the admin prefix holds `target` (query ignored, dot segments resolved),
 * at the root or, given the framework's `mountPath`, under it (see resolveMount).
 */
export function isOurPath(options: ResolvedOptions, target: string, adminOn: boolean, mountPath = ''): boolean {
  const query = target.indexOf('?');
  const path = routablePath(query === -1 ? target : target.slice(0, query));
  if (mountPath !== '') return resolveMount(path, mountPath, prefixesOf(options, adminOn)) !== null;
  return isUnder(path, options.prefix) || (adminOn && isAdminPath(path, options.adminPrefix));
}

function prefixesOf(options: ResolvedOptions, adminOn: boolean): readonly string[] {
  return adminOn ? [options.prefix, options.adminPrefix] : [options.prefix];
}

/** The engine as a request mounted by its framework sees it (prefixes and cookie path under the mount). */
function mountedEngine<U>(engine: Engine<U>, path: string, mountPath: string | undefined): Engine<U> | null {
  if (mountPath === undefined || mountPath === '') return engine;
  const mount = resolveMount(path, mountPath, prefixesOf(engine.options, engine.admin !== null));
  if (mount === null) return null;
  return mount === '' ? engine : { ...engine, options: mountedOptions(engine.options, mount) };
}

/**
 * Dispatches one request to its endpoint; every failure becomes the contract's JSON error.
 * With `instrumentation`, a request to a route runs as one of its operations.
 */
export async function handleRequest<U>(
  root: Engine<U>,
  received: SessauthRequest,
  instrumentation?: SessauthInstrumentation,
): Promise<SessauthResponse | null> {
  // A CORS preflight belongs to the host's CORS layer, mounted before the adapter.
  if (received.method.toUpperCase() === 'OPTIONS') return null;
  const path = routablePath(received.path);
  const request = path === received.path ? received : { ...received, path };
  const engine = mountedEngine(root, path, received.mountPath);
  if (engine === null) return null;
  // The admin pages first: their prefix is separate from the API's.
  if (engine.admin !== null && isAdminPath(request.path, engine.options.adminPrefix)) {
    return handleAdminRequest(engine, engine.admin, request).catch((error: unknown) => errorToResponse(error, engine.logger));
  }
  const match = (engine.authenticator === null ? matchEndpointWithoutLogin : matchEndpoint)(
    request.method.toUpperCase(),
    request.path,
    engine.options.prefix,
  );
  if (match.kind === 'not-ours') return null;
  if (instrumentation === undefined || match.kind !== 'route') return dispatch(withStoreBudget(engine), request, match);
  // Only a matched route is an operation worth a span: a 404 or 405 under the prefix names none.
  // The template as matched: two paths may serve one route (the JWK set at /jwks.json and /.well-known/jwks.json).
  const operation = { name: match.route, route: `${engine.options.prefix}${match.template}/`, method: request.method.toUpperCase() };
  return instrumentation.run(operation, (report) => dispatch(withStoreBudget(engine), request, match, report));
}

/** The engine as one request sees it: its store calls share one budget (see RequestStoreBudget). */
function withStoreBudget<U>(engine: Engine<U>): Engine<U> {
  const budget = new RequestStoreBudget(engine.options.storeBudgetMs);
  return { ...engine, store: budget.bound(engine.store), rateLimitStore: budget.bound(engine.rateLimitStore) };
}

/** The methods of `allow` whose endpoint on `path` this host serves (its `available` check). */
function availableMethods<U>(engine: Engine<U>, path: string, allow: string): string[] {
  const match = engine.authenticator === null ? matchEndpointWithoutLogin : matchEndpoint;
  return allow.split(', ').filter((method) => {
    const found = match(method, path, engine.options.prefix);
    return found.kind === 'route' && endpointOf(found.route).available?.(engine) !== false;
  });
}

async function dispatch<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  match: Exclude<RouteMatch<RouteName>, { kind: 'not-ours' }>,
  report?: OutcomeReporter,
): Promise<SessauthResponse> {
  try {
    if (match.kind === 'not-found') throw new SessauthError('not_found');
    if (match.kind === 'method-not-allowed') {
      // Only the methods this host serves there: a path whose every endpoint is unavailable (the
      // activity route with JWT_SESSION_ACTIVITY off) is a 404, as if it did not exist.
      const allow = availableMethods(engine, request.path, match.allow);
      if (allow.length === 0) throw new SessauthError('not_found');
      return errorToResponse(new SessauthError('method_not_allowed'), engine.logger, { headers: { allow: allow.join(', ') } });
    }
    const endpoint = endpointOf(match.route);
    if (endpoint.available?.(engine) === false) throw new SessauthError('not_found');
    const call = { engine, request, sessionId: match.sessionId ?? '' };
    // The guard runs first, so its 401s come before any check of the endpoint's own.
    const response =
      endpoint.auth === 'bearer'
        ? await endpoint.handle({ ...call, caller: await authenticateRequest(engine, request) })
        : await endpoint.handle(call);
    report?.({ status: response.status, errorCode: null });
    return response;
  } catch (error) {
    report?.(outcomeOfError(error));
    return errorToResponse(error, engine.logger);
  }
}
