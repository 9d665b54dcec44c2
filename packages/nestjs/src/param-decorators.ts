import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestContextOf } from './request-context.js';

/**
 * The caller's user and session (`AuthContext`), as SessauthGuard found them:
 * `@CurrentSession() caller: AuthContext<MyUser>`. Null only on an `@OptionalAuth()` (or `@Public()`)
 * route without a user; a route the guard did not run on throws (a forgotten guard is loud).
 */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  requestContextOf(context.switchToHttp().getRequest<object>(), '@CurrentSession()'),
);

/**
 * The caller's user (what your `users.findById` returned): `@CurrentUser() user: MyUser`.
 * Null only on an `@OptionalAuth()` (or `@Public()`) route without a user.
 */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => requestContextOf(context.switchToHttp().getRequest<object>(), '@CurrentUser()')?.user ?? null,
);
