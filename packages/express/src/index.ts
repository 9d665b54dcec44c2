export { sessauthMiddleware } from './sessauth-middleware.js';
export { requireAuth, optionalAuth, getAuth, getOptionalAuth } from './guards.js';
export type { AuthenticatedRequest } from './authenticated-request.js';
