export { sessauthPlugin, sessauthFrameworkErrors, type SessauthPluginOptions } from './sessauth-plugin.js';
export { getAuth, authOf, requireFresh } from './guards.js';
export { sendSessauthResponse } from './write-response.js';
export type { SessauthFastifyTypes, SessauthUser } from './types.js';
