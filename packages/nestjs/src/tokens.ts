/** The injection token of the engine: `@Inject(SESSAUTH) auth: Sessauth<MyUser>` (or `@InjectSessauth()`). */
export const SESSAUTH = Symbol('sessauth.engine');

/** The injection token of the module's resolved options. */
export const SESSAUTH_MODULE_OPTIONS = Symbol('sessauth.module-options');
