export { sessauthMiddleware } from './sessauth-middleware.js';
export { requireAuth, requireFresh, optionalAuth, getAuth, type SessauthState, type OptionalSessauthState } from './guards.js';
export { sendSessauthResponse } from './write-response.js';
