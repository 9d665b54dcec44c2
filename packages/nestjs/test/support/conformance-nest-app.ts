import { Controller, Get, Inject, Module, Post, Req, Res, UseGuards, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { AuthContext, Sessauth } from '@sessauth/core';
import { type AppUnderTest, type ConformanceHost, type ConformanceUser, FRESH_ROUTE_RULE, type MountApp } from '@sessauth/conformance';
import { sessauthFrameworkErrors } from '@sessauth/fastify';
import express from 'express';
import {
  CurrentSession,
  Fresh,
  InjectSessauth,
  OptionalAuth,
  SessauthGuard,
  SessauthModule,
  sendSessauthResponse,
  sessauthRequestOf,
} from '../../src/index.js';

const HOST = Symbol('conformance-host');
const view = ({ user, session }: AuthContext<ConformanceUser>) => ({ user: { id: user.id, username: user.username }, session: { id: session.id } });

/** The host routes the conformance suite calls (see MountApp), as Nest controllers. */
@Controller('me')
class MeController {
  constructor(
    @InjectSessauth() private readonly auth: Sessauth<ConformanceUser>,
    @Inject(HOST) private readonly host: ConformanceHost,
  ) {}

  @Get()
  me(@CurrentSession() caller: AuthContext<ConformanceUser>) {
    return view(caller);
  }

  @Get('fresh')
  @Fresh(FRESH_ROUTE_RULE.maxAgeSeconds)
  fresh(@CurrentSession() caller: AuthContext<ConformanceUser>) {
    return view(caller);
  }

  @Get('optional')
  @OptionalAuth()
  optional(@CurrentSession() caller: AuthContext<ConformanceUser> | null) {
    return { user: caller === null ? null : view(caller).user };
  }

  // The body stays unread for the core (no body parser reaches this route): @Req()/@Res() raw.
  @Post('password')
  async password(@Req() request: object, @Res() response: object, @CurrentSession() caller: AuthContext<ConformanceUser>) {
    sendSessauthResponse(response, await this.auth.changePassword(sessauthRequestOf(request), caller, this.host.setPassword));
  }
}

export type NestPlatform = 'express' | 'fastify';

/**
 * The conformance app as a Nest app: `SessauthModule.forRoot({ auth })` and the host's routes in a
 * controller. On Express the guard is per controller (`@UseGuards`), on Fastify global
 * (`globalGuard: true`), so both ways are under the suite. A test's mount path is Nest's global
 * prefix, with the host's routes excluded from it (they stay at the root, as the suite expects).
 */
export function mountNest(platform: NestPlatform): MountApp {
  return async (auth, host) => {
    const guarded = platform === 'express';
    if (guarded) UseGuards(SessauthGuard)(MeController);
    @Module({
      imports: [SessauthModule.forRoot({ auth, globalGuard: !guarded })],
      controllers: [MeController],
      providers: [{ provide: HOST, useValue: host }],
    })
    class AppModule {}
    const app: INestApplication =
      platform === 'express'
        ? await NestFactory.create(AppModule, new ExpressAdapter(express()), { bodyParser: false, logger: false })
        : await NestFactory.create(AppModule, new FastifyAdapter({ frameworkErrors: sessauthFrameworkErrors(auth), forceCloseConnections: true }), {
            bodyParser: false,
            logger: false,
          });
    if (platform === 'fastify') {
      // Fastify's own JSON parser would read POST /me/password's body before the core does.
      const instance = (app.getHttpAdapter() as FastifyAdapter).getInstance();
      instance.removeAllContentTypeParsers();
      instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    }
    if (host.mountPath !== undefined) {
      app.setGlobalPrefix(host.mountPath, { exclude: ['me', 'me/fresh', 'me/optional', 'me/password'] });
    }
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
    return { baseUrl, close: () => app.close() } satisfies AppUnderTest;
  };
}
