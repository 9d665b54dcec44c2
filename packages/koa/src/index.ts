export { sessauthMiddleware } from './sessauth-middleware.js';
export { requireAuth, requireFresh, optionalAuth, getAuth, type SessauthState, type OptionalSessauthState } from './guards.js';
export { sendSessauthResponse } from './write-response.js';
// A host route's request as the core sees it, for `auth.createSessionFor(userId, { request: toSessauthRequest(ctx.req) })`:
// exported here so that a Koa app needs no other sessauth package for it.
export { toSessauthRequest } from '@sessauth/node-http';
