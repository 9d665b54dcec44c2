import { handleAdminRequest, isAdminPath } from '../admin/route.js';
import { authenticateRequest } from '../endpoints/bearer-guard.js';
import type { Engine } from '../endpoints/engine.js';
import { endpointOf, matchEndpoint, matchEndpointWithoutLogin, type RouteName } from '../endpoints/endpoints.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { routablePath } from '../http/request-target.js';
import { errorToResponse } from '../http/response.js';
import type { RouteMatch } from '../http/router.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { ResolvedOptions } from '../options/options.js';
import { RequestStoreBudget } from '../store/request-store-budget.js';

/** The API prefix or the admin prefix holds `target` (query ignored, dot segments resolved). */
export function isOurPath(options: ResolvedOptions, target: string, adminOn: boolean): boolean {
  const query = target.indexOf('?');
  const path = routablePath(query === -1 ? target : target.slice(0, query));
  return isUnder(path, options.prefix) || (adminOn && isAdminPath(path, options.adminPrefix));
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Dispatches one request to its endpoint; every failure becomes the contract's JSON error. */
export async function handleRequest<U>(engine: Engine<U>, received: SessauthRequest): Promise<SessauthResponse | null> {
  // A CORS preflight belongs to the host's CORS layer, mounted before the adapter.
  if (received.method.toUpperCase() === 'OPTIONS') return null;
  const path = routablePath(received.path);
  const request = path === received.path ? received : { ...received, path };
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
  return dispatch(withStoreBudget(engine), request, match);
}

/** The engine as one request sees it: its store calls share one budget (see RequestStoreBudget). */
function withStoreBudget<U>(engine: Engine<U>): Engine<U> {
  const budget = new RequestStoreBudget(engine.options.storeBudgetMs);
  return { ...engine, store: budget.bound(engine.store), rateLimitStore: budget.bound(engine.rateLimitStore) };
}

async function dispatch<U>(
  engine: Engine<U>,
  request: SessauthRequest,
  match: Exclude<RouteMatch<RouteName>, { kind: 'not-ours' }>,
): Promise<SessauthResponse> {
  try {
    if (match.kind === 'not-found') throw new SessauthError('not_found');
    if (match.kind === 'method-not-allowed') {
      return errorToResponse(new SessauthError('method_not_allowed'), engine.logger, { headers: { allow: match.allow } });
    }
    const endpoint = endpointOf(match.route);
    const call = { engine, request, sessionId: match.sessionId ?? '' };
    // The guard runs first, so its 401s come before any check of the endpoint's own.
    if (endpoint.auth === 'bearer') return await endpoint.handle({ ...call, caller: await authenticateRequest(engine, request) });
    return await endpoint.handle(call);
  } catch (error) {
    return errorToResponse(error, engine.logger);
  }
}
