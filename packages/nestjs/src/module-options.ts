import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency, Type } from '@nestjs/common';
import type { Sessauth } from '@sessauth/core';

/** What `SessauthModule.forRoot` (or the factory of `forRootAsync`) gives the module. */
export interface SessauthModuleOptions<U = unknown> {
  /**
   * The engine (`await createSessauth(...)`). Its endpoints are served under
   * `auth.options.prefix`, below Nest's global prefix when one is set (`app.setGlobalPrefix('api')`:
   * `/api/auth/login/`), on the Express and the Fastify platform alike.
   */
  readonly auth: Sessauth<U>;
}

/** The module-level switches, known when the module is declared (they choose providers). */
export interface SessauthModuleExtras {
  /**
   * Registers `SessauthGuard` as a global guard (`APP_GUARD`): every route needs a valid access
   * token unless marked `@Public()` (or `@OptionalAuth()`). Off by default: put
   * `@UseGuards(SessauthGuard)` on the controllers or routes to guard.
   */
  readonly globalGuard?: boolean;
}

/** `forRootAsync({ useClass })` / `useExisting`: a provider that builds the options. */
export interface SessauthOptionsFactory<U = unknown> {
  createSessauthOptions(): SessauthModuleOptions<U> | Promise<SessauthModuleOptions<U>>;
}

/** The options of `SessauthModule.forRootAsync`, by Nest's conventions (`useFactory` + `inject`, `useClass`, `useExisting`). */
export interface SessauthModuleAsyncOptions<U = unknown> extends SessauthModuleExtras, Pick<ModuleMetadata, 'imports'> {
  /** Builds the options, typically `async (config) => ({ auth: await createSessauth(...) })`. */
  readonly useFactory?: (...args: never[]) => SessauthModuleOptions<U> | Promise<SessauthModuleOptions<U>>;
  /** The providers handed to `useFactory`, in order. */
  readonly inject?: ReadonlyArray<InjectionToken | OptionalFactoryDependency>;
  /** A class the module instantiates to build the options. */
  readonly useClass?: Type<SessauthOptionsFactory<U>>;
  /** An existing provider (from `imports`) that builds the options. */
  readonly useExisting?: Type<SessauthOptionsFactory<U>>;
}
