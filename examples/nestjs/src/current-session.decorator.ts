import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { IntegrationError, type AuthContext } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';

/** The caller's user and session in a route behind SessauthGuard: `@CurrentSession() caller: AuthContext<DemoUser>`. */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext<DemoUser> => {
  const { auth } = context.switchToHttp().getRequest<Request>();
  if (auth === undefined) throw new IntegrationError('@CurrentSession(): this route is not behind SessauthGuard');
  return auth as AuthContext<DemoUser>;
});
