export { sessauthMiddleware, requireAuth, optionalAuth, type SessauthState, type OptionalSessauthState } from './middleware.js';
