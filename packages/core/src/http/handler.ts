import { handleAdminRequest, isAdminPath } from '../admin/admin-route.js';
import type { Engine } from '../engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { csrfRoute } from '../routes/csrf.js';
import { deleteSessionRoute } from '../routes/delete-session.js';
import { listSessionsRoute } from '../routes/list-sessions.js';
import { loginRoute } from '../routes/login.js';
import { logoutAllRoute } from '../routes/logout-all.js';
import { logoutRoute } from '../routes/logout.js';
import { refreshRoute } from '../routes/refresh.js';
import { errorToResponse } from './response.js';
import { matchRoute } from './router.js';
import type { SessauthRequest, SessauthResponse } from './sessauth-request.js';

/** Dispatches one request to its endpoint; every failure becomes the contract's JSON error. */
export async function handleRequest<U>(engine: Engine<U>, request: SessauthRequest): Promise<SessauthResponse | null> {
  // The admin pages first: their prefix is separate from the API's.
  if (isAdminPath(request.path, engine.options.adminPrefix)) {
    return handleAdminRequest(engine, request).catch((error: unknown) => errorToResponse(error, engine.logger));
  }
  const match = matchRoute(request.method.toUpperCase(), request.path, engine.options.prefix);
  if (match.kind === 'not-ours') return null;
  try {
    if (match.kind === 'not-found') throw new SessauthError('not_found');
    if (match.kind === 'method-not-allowed') {
      return errorToResponse(new SessauthError('method_not_allowed'), engine.logger, { headers: { allow: match.allow } });
    }
    switch (match.route) {
      case 'csrf':
        return csrfRoute(engine, request);
      case 'login':
        return await loginRoute(engine, request);
      case 'refresh':
        return await refreshRoute(engine, request);
      case 'list-sessions':
        return await listSessionsRoute(engine, request);
      case 'delete-session':
        return await deleteSessionRoute(engine, request, match.sessionId!);
      case 'logout':
        return await logoutRoute(engine, request);
      case 'logout-all':
        return await logoutAllRoute(engine, request);
    }
  } catch (error) {
    return errorToResponse(error, engine.logger);
  }
}
