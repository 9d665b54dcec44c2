export { sessauthRouter, requireAuth } from './sessauth-router.js';
export type { AuthenticatedRequest } from './authenticated-request.js';
