import { HttpException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Sessauth } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { guardInput } from '@sessauth/node-http';
import { SESSAUTH } from './sessauth.provider.js';

/**
 * Guards a controller or a route: the core's bearer check (`auth.authenticate`). A refusal is the
 * core's own answer as an HttpException: its status, its JSON body (`error_code`) and its headers
 * (`WWW-Authenticate`, `Cache-Control`), so a client sees what every other sessauth route sends.
 */
@Injectable()
export class SessauthGuard implements CanActivate {
  constructor(@Inject(SESSAUTH) private readonly auth: Sessauth<DemoUser>) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    try {
      req.auth = await this.auth.authenticate(guardInput(this.auth, req, req.originalUrl));
      return true;
    } catch (error) {
      const answer = this.auth.errorResponse(error);
      http.getResponse<Response>().set(answer.headers);
      throw new HttpException(JSON.parse(answer.body ?? '{}') as Record<string, unknown>, answer.status, { cause: error });
    }
  }
}
