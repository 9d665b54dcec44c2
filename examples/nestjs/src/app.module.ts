import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { json } from 'express';
import type { Sessauth } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { sessauthMiddleware } from '@sessauth/express';
import { MeController } from './me.controller.js';
import { SessauthGuard } from './sessauth.guard.js';
import { SESSAUTH, sessauthProvider } from './sessauth.provider.js';

@Module({})
export class AppModule implements NestModule {
  constructor(@Inject(SESSAUTH) private readonly auth: Sessauth<DemoUser>) {}

  static forRoot(auth: Sessauth<DemoUser>): DynamicModule {
    return { module: AppModule, controllers: [MeController], providers: [sessauthProvider(auth), SessauthGuard] };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The endpoints (/auth/...) first, reading the raw body themselves; then the JSON parser
    // for the app's own routes (Nest's built-in one is off: see create-app.ts).
    consumer.apply(sessauthMiddleware(this.auth), json()).forRoutes('*');
  }
}
