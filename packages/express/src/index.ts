export { sessauthMiddleware } from './sessauth-middleware.js';
export { requireAuth, requireFresh, optionalAuth, getAuth, getOptionalAuth } from './guards.js';
export type { AuthenticatedRequest } from './authenticated-request.js';
// Sends a core response on Express's res (for a host route's `createSessionFor(...).response()`).
export { writeSessauthResponse as sendSessauthResponse } from '@sessauth/node-http';
// A host route's request as the core sees it, for `auth.createSessionFor(userId, { request: toSessauthRequest(req) })`.
export { toSessauthRequest } from '@sessauth/node-http';
