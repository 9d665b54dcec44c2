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
 * controller. On Fastify the guard is global (`globalGuard: true`); on Express it is both global
 * and on the controller (`@UseGuards`), so a request passes it twice and must be checked once
 * (a DPoP proof is spent by its first check). A test's mount path is Nest's global
 * prefix, with the host's routes excluded from it (they stay at the root, as the suite expects).
 */
let controllerGuarded = false;

export function mountNest(platform: NestPlatform): MountApp {
  return async (auth, host) => {
    const guarded = platform === 'express';
    // Once: UseGuards adds to the class's guards, so each app would run the guard once more.
    if (guarded && !controllerGuarded) {
      UseGuards(SessauthGuard)(MeController);
      controllerGuarded = true;
    }
    @Module({
      // Express has the guard twice (global and on the controller), as an app may: one check a request.
      imports: [SessauthModule.forRoot({ auth, globalGuard: true })],
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
