export { sessauthMiddleware } from './sessauth-middleware.js';
export { requireAuth, optionalAuth, getAuth, type SessauthState, type OptionalSessauthState } from './guards.js';
export { sendSessauthResponse } from './write-response.js';
