import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Sessauth } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { AppModule } from './app.module.js';

export interface NestAppOptions {
  /** The browser origins allowed to call the API with credentials (the refresh cookie). */
  readonly corsOrigins: readonly string[];
}

/**
 * The Nest app around a ready engine. CORS goes in `create`, so Nest puts it before every
 * middleware, sessauth's included (a preflight of POST /auth/login/ is the CORS layer's to
 * answer). `bodyParser: false`: Nest's parser would run before sessauth and turn malformed
 * JSON into its own 400 instead of the core's `invalid_request`.
 */
export function createNestApp(auth: Sessauth<DemoUser>, options: NestAppOptions): Promise<NestExpressApplication> {
  return NestFactory.create<NestExpressApplication>(AppModule.forRoot(auth), {
    cors: { origin: [...options.corsOrigins], credentials: true },
    bodyParser: false,
    logger: ['error', 'warn'],
  });
}
