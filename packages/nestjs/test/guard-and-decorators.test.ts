import { Controller, Get, Inject, Injectable, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { TestClock } from '@sessauth/conformance';
import { type AuthContext, createSessauth, MemorySessionStore, type Sessauth, SessauthError } from '@sessauth/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CurrentSession,
  CurrentUser,
  Fresh,
  OptionalAuth,
  Public,
  type SessauthModuleOptions,
  SESSAUTH,
  SessauthModule,
  type SessauthOptionsFactory,
} from '../src/index.js';

interface User {
  readonly id: string;
  readonly username: string;
}
const alice: User = { id: 'u-alice', username: 'alice' };
const FRESH_SECONDS = 300;

function engine(clock: TestClock): Promise<Sessauth<User>> {
  return createSessauth<User>({
    options: {
      secretKey: 'nest-guard-test-secret-0123456789abcdefghijklmnopqrstuv',
      issuer: 'https://issuer.test',
      audience: 'sessauth-nest-test',
      loginThrottleRate: '0',
      refreshThrottleRate: '0',
      accessTokenExpireSeconds: 3600,
    },
    clock,
    store: new MemorySessionStore(),
    users: { findById: async (id) => (id === alice.id ? alice : null), idOf: (user) => user.id, securityStamp: () => 'stamp-1' },
    authenticator: async () => {
      throw new SessauthError('invalid_credentials');
    },
  });
}

@Controller()
class RoutesController {
  @Get('profile')
  profile(@CurrentUser() user: User, @CurrentSession() caller: AuthContext<User>) {
    return { username: user.username, sameUser: caller.user === user, session: caller.session.id };
  }

  @Get('fresh')
  @Fresh(FRESH_SECONDS)
  fresh(@CurrentUser() user: User) {
    return { username: user.username };
  }

  @Get('public')
  @Public()
  open(@CurrentUser() user: User | null) {
    return { user };
  }

  @Get('optional')
  @OptionalAuth()
  optional(@CurrentUser() user: User | null) {
    return { user: user?.username ?? null };
  }
}

/** Every route of this controller is public (the class-level decorator). */
@Controller('docs')
@Public()
class DocsController {
  @Get()
  docs() {
    return { docs: true };
  }
}

const CLOCK = Symbol('clock');

/** A provider the async factory depends on, as a ConfigService would be. */
@Module({ providers: [{ provide: CLOCK, useValue: new TestClock() }], exports: [CLOCK] })
class ClockModule {}

type Platform = 'express' | 'fastify';

async function start(platform: Platform, root: new () => object): Promise<{ app: INestApplication; base: string }> {
  const app =
    platform === 'express'
      ? await NestFactory.create(root, new ExpressAdapter(express()), { bodyParser: false, logger: false })
      : await NestFactory.create(root, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1') };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe.each<Platform>(['express', 'fastify'])('SessauthGuard and the decorators on Nest %s (forRootAsync, global guard)', (platform) => {
  let app: INestApplication;
  let base: string;
  let auth: Sessauth<User>;
  let clock: TestClock;

  beforeAll(async () => {
    @Module({
      imports: [
        ClockModule,
        SessauthModule.forRootAsync<User>({
          imports: [ClockModule],
          inject: [CLOCK],
          useFactory: async (injected: TestClock) => ({ auth: await engine(injected) }),
          globalGuard: true,
        }),
      ],
      controllers: [RoutesController, DocsController],
    })
    class AppModule {}
    ({ app, base } = await start(platform, AppModule));
    auth = app.get<symbol, Sessauth<User>>(SESSAUTH);
    clock = app.get<symbol, TestClock>(CLOCK);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('refuses an unlabelled route without a token, or with a forged one, with the core answer (401, error_code, no-store)', async () => {
    const answer = await fetch(`${base}/profile`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(((await answer.json()) as { error_code: string }).error_code).toBe('invalid_token');
    const forged = await fetch(`${base}/profile`, bearer('not-a-token'));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error_code: string }).error_code).toBe('invalid_token');
  });

  it('injects the current user and session (@CurrentUser, @CurrentSession) behind the global guard', async () => {
    const session = await auth.createSessionFor(alice.id, { ip: null });
    const answer = await fetch(`${base}/profile`, bearer(session.access_token));
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await answer.json()).toEqual({ username: 'alice', sameUser: true, session: session.session_id });
  });

  it('lets a @Public() route (method or class) through without reading the token', async () => {
    expect(await (await fetch(`${base}/public`)).json()).toEqual({ user: null });
    // A bad token is not even read on a public route.
    const withGarbage = await fetch(`${base}/public`, bearer('not-a-token'));
    expect(withGarbage.status).toBe(200);
    expect((await fetch(`${base}/docs`)).status).toBe(200);
  });

  it('takes an anonymous caller on an @OptionalAuth() route, a user with a token, the core 401 for a bad token', async () => {
    const session = await auth.createSessionFor(alice.id, { ip: null });
    expect(await (await fetch(`${base}/optional`)).json()).toEqual({ user: null });
    expect(await (await fetch(`${base}/optional`, bearer(session.access_token))).json()).toEqual({ user: 'alice' });
    expect((await fetch(`${base}/optional`, bearer('not-a-token'))).status).toBe(401);
  });

  it('@Fresh(300): 200 after sign-in, 401 insufficient_user_authentication with the RFC 9470 challenge after 300 s, 200 after a step-up', async () => {
    const session = await auth.createSessionFor(alice.id, { ip: null });
    expect((await fetch(`${base}/fresh`, bearer(session.access_token))).status).toBe(200);
    clock.advance(FRESH_SECONDS + 1);
    const stale = await fetch(`${base}/fresh`, bearer(session.access_token));
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { error_code: string }).error_code).toBe('insufficient_user_authentication');
    const challenge = stale.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_user_authentication"');
    expect(challenge).toContain(`max_age="${FRESH_SECONDS}"`);
    // Only the fresh route asks for a recent sign-in.
    expect((await fetch(`${base}/profile`, bearer(session.access_token))).status).toBe(200);
    // A step-up counts at once for every token of the session.
    await auth.stepUp(alice.id, session.session_id, { amr: ['otp'] });
    expect((await fetch(`${base}/fresh`, bearer(session.access_token))).status).toBe(200);
  });

  it('serves the endpoints (the engine from the async factory)', async () => {
    const csrf = await fetch(`${base}/auth/csrf/`);
    expect(csrf.status).toBe(200);
    expect(await csrf.json()).toHaveProperty('csrf_token');
  });
});

describe.each<Platform>(['express', 'fastify'])('SessauthModule.forRootAsync({ useClass }) without a global guard on Nest %s', (platform) => {
  @Injectable()
  class OptionsFromClass implements SessauthOptionsFactory<User> {
    constructor(@Inject(CLOCK) private readonly clock: TestClock) {}
    async createSessauthOptions(): Promise<SessauthModuleOptions<User>> {
      return { auth: await engine(this.clock) };
    }
  }

  it('serves the endpoints, and @CurrentSession() on a route no guard ran on is a server error, never an anonymous user', async () => {
    @Module({
      imports: [ClockModule, SessauthModule.forRootAsync({ imports: [ClockModule], useClass: OptionsFromClass })],
      controllers: [RoutesController],
    })
    class AppModule {}
    const { app, base } = await start(platform, AppModule);
    try {
      expect((await fetch(`${base}/auth/csrf/`)).status).toBe(200);
      // No guard: the decorator refuses to make up a caller.
      expect((await fetch(`${base}/profile`)).status).toBe(500);
    } finally {
      await app.close();
    }
  });
});
