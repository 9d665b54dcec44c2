export { sessauthMiddleware, requireAuth, type SessauthState } from './middleware.js';
