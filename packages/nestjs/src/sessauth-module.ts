import { type DynamicModule, Global, Inject, Module, type NestModule, type OnModuleInit, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import { IntegrationError } from '@sessauth/core';
import { sessauthMiddleware } from '@sessauth/express';
import { sessauthPlugin, type SessauthPluginOptions } from '@sessauth/fastify';
import type { SessauthModuleAsyncOptions, SessauthModuleExtras, SessauthModuleOptions, SessauthOptionsFactory } from './module-options.js';
import { SessauthExceptionFilter } from './sessauth-exception-filter.js';
import { SessauthGuard } from './sessauth-guard.js';
import { SESSAUTH, SESSAUTH_MODULE_OPTIONS } from './tokens.js';

type ExpressMiddleware = ReturnType<typeof sessauthMiddleware>;

/** The part of an Express app the module uses. */
interface ExpressMounter {
  use(...handlers: [ExpressMiddleware] | [string, ExpressMiddleware]): unknown;
}

/** The part of a Fastify instance the module uses (the platform's own type stays out of this package's types). */
interface FastifyRegistrar {
  register(plugin: typeof sessauthPlugin, options: SessauthPluginOptions): PromiseLike<unknown>;
}

/**
 * sessauth in a Nest app: the endpoints (under `auth.options.prefix`, below Nest's global prefix)
 * on the Express or the Fastify platform, the engine as a provider (`@InjectSessauth()`),
 * `SessauthGuard` and its decorators. Global: import it once, in the root module.
 *
 * On Express the endpoints are a middleware (`@sessauth/express`) mounted ahead of every host
 * middleware; on Fastify a plugin (`@sessauth/fastify`) answering in `onRequest`, before any
 * content-type parser. Either way the core reads the raw body of its own routes; on Express, create
 * the app with `bodyParser: false` and apply a JSON parser for your own routes (see docs/nestjs.md).
 */
@Global()
@Module({})
export class SessauthModule implements NestModule, OnModuleInit {
  constructor(
    @Inject(SESSAUTH_MODULE_OPTIONS) private readonly options: SessauthModuleOptions,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(ApplicationConfig) private readonly appConfig: ApplicationConfig,
  ) {}

  /** The module around a ready engine: `SessauthModule.forRoot({ auth })`. */
  static forRoot<U>(options: SessauthModuleOptions<U> & SessauthModuleExtras): DynamicModule {
    return moduleOf([{ provide: SESSAUTH_MODULE_OPTIONS, useValue: options }], options, []);
  }

  /**
   * The module around an engine built by a provider, Nest's async way:
   * `forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: async (config) => ({ auth: await createSessauth(...) }) })`,
   * or `useClass` / `useExisting` with a `SessauthOptionsFactory`.
   */
  static forRootAsync<U>(options: SessauthModuleAsyncOptions<U>): DynamicModule {
    return moduleOf(asyncOptionsProviders(options), options, options.imports ?? []);
  }

  // The endpoints go onto the platform's instance while Nest registers middleware (init):
  // after CORS and the body parsers, before the host's middleware and routes. Not through
  // Nest's MiddlewareConsumer: its route matching turns away URLs the core must answer
  // (`/auth/jwks.json`, a session id with no trailing slash or bad percent-encoding).
  configure(): void {
    if (this.platform() !== 'express') return;
    const express = this.adapterHost.httpAdapter.getInstance<ExpressMounter>();
    const middleware = sessauthMiddleware(this.options.auth);
    // Under Nest's global prefix (`app.setGlobalPrefix('api')`: `/api/auth/...`), the refresh cookie's Path following.
    const mountPath = this.globalPrefix();
    if (mountPath === '') express.use(middleware);
    else express.use(mountPath, middleware);
  }

  async onModuleInit(): Promise<void> {
    if (this.platform() !== 'fastify') return;
    // Registered before Fastify starts (app.listen/init readies it); the global prefix as on Express.
    const mountPath = this.globalPrefix();
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyRegistrar>();
    await fastify.register(sessauthPlugin, mountPath === '' ? { auth: this.options.auth } : { auth: this.options.auth, prefix: mountPath });
  }

  /** Nest's global prefix as a mount path: '' or '/api' (leading slash, none trailing). */
  private globalPrefix(): string {
    const prefix = this.appConfig.getGlobalPrefix().replace(/^\/+|\/+$/g, '');
    return prefix === '' ? '' : `/${prefix}`;
  }

  /** The HTTP platform; null in a standalone application context (no HTTP server: nothing to serve). */
  private platform(): 'express' | 'fastify' | null {
    // Typed non-null by Nest, but absent (null or undefined) in an application context.
    const adapter: HttpAdapterHost['httpAdapter'] | null | undefined = this.adapterHost.httpAdapter;
    if (adapter === null || adapter === undefined) return null;
    const type = adapter.getType();
    if (type === 'express' || type === 'fastify') return type;
    throw new IntegrationError(`SessauthModule serves Nest's Express and Fastify platforms, not '${type}'`);
  }
}

function moduleOf(optionProviders: Provider[], extras: SessauthModuleExtras, imports: NonNullable<DynamicModule['imports']>): DynamicModule {
  const providers: Provider[] = [
    ...optionProviders,
    { provide: SESSAUTH, useFactory: (options: SessauthModuleOptions) => options.auth, inject: [SESSAUTH_MODULE_OPTIONS] },
    SessauthGuard,
    { provide: APP_FILTER, useClass: SessauthExceptionFilter },
  ];
  if (extras.globalGuard === true) providers.push({ provide: APP_GUARD, useExisting: SessauthGuard });
  return { module: SessauthModule, global: true, imports, providers, exports: [SESSAUTH, SESSAUTH_MODULE_OPTIONS, SessauthGuard] };
}

function asyncOptionsProviders<U>(options: SessauthModuleAsyncOptions<U>): Provider[] {
  if (options.useFactory !== undefined) {
    return [{ provide: SESSAUTH_MODULE_OPTIONS, useFactory: options.useFactory, inject: [...(options.inject ?? [])] }];
  }
  const factory = options.useClass ?? options.useExisting;
  if (factory === undefined) throw new IntegrationError('SessauthModule.forRootAsync: give useFactory, useClass or useExisting');
  const build = {
    provide: SESSAUTH_MODULE_OPTIONS,
    useFactory: (made: SessauthOptionsFactory<U>) => made.createSessauthOptions(),
    inject: [factory],
  };
  return options.useClass === undefined ? [build] : [build, { provide: factory, useClass: factory }];
}

/** Injects the engine: `constructor(@InjectSessauth() private readonly auth: Sessauth<MyUser>) {}`. */
export const InjectSessauth = (): PropertyDecorator & ParameterDecorator => Inject(SESSAUTH);
