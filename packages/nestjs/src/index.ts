export { SessauthModule, InjectSessauth } from './sessauth-module.js';
export type { SessauthModuleOptions, SessauthModuleAsyncOptions, SessauthModuleExtras, SessauthOptionsFactory } from './module-options.js';
export { SessauthGuard } from './sessauth-guard.js';
export { Public, OptionalAuth, Fresh, SESSAUTH_PUBLIC, SESSAUTH_OPTIONAL, SESSAUTH_FRESH } from './route-metadata.js';
export { CurrentSession, CurrentUser } from './param-decorators.js';
export { SessauthException } from './sessauth-exception.js';
export { SessauthExceptionFilter } from './sessauth-exception-filter.js';
export { sessauthRequestOf, sendSessauthResponse } from './platform-http.js';
export { SESSAUTH, SESSAUTH_MODULE_OPTIONS } from './tokens.js';
