export { sessauthPlugin, sessauthFrameworkErrors, type SessauthPluginOptions } from './sessauth-plugin.js';
export { getAuth, authOf, requireFresh } from './guards.js';
export { sendSessauthResponse } from './write-response.js';
// A host route's request as the core sees it: `auth.createSessionFor(userId, { request: toSessauthRequest(request.raw) })`.
export { toSessauthRequest } from '@sessauth/node-http';
export type { SessauthFastifyTypes, SessauthUser } from './types.js';
