import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import type { Sessauth } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { SessauthModule } from '@sessauth/nestjs';
import { json } from 'express';
import { HealthController } from './health.controller.js';
import { MeController } from './me.controller.js';

@Module({})
export class AppModule implements NestModule {
  static forRoot(auth: Sessauth<DemoUser>): DynamicModule {
    return {
      module: AppModule,
      // The endpoints at /auth/..., and SessauthGuard on every route but the @Public() ones.
      imports: [SessauthModule.forRoot({ auth, globalGuard: true })],
      controllers: [MeController, HealthController],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The JSON parser for the app's own routes; sessauth reads the raw body of its own
    // routes ahead of it (Nest's built-in parser is off: see create-app.ts).
    consumer.apply(json()).forRoutes('*');
  }
}
