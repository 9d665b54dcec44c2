export { sessauthPlugin, sessauthFrameworkErrors, authOf, type SessauthPluginOptions } from './plugin.js';
export type { SessauthFastifyTypes, SessauthUser } from './types.js';
