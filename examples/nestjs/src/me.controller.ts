import { Body, Controller, Get, Post } from '@nestjs/common';
import type { AuthContext } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { CurrentSession, CurrentUser, Fresh } from '@sessauth/nestjs';

/** The host's own routes; the global SessauthGuard lets only a valid access token in. */
@Controller('me')
export class MeController {
  @Get()
  me(@CurrentSession() caller: AuthContext<DemoUser>) {
    return { user: { id: caller.user.id, username: caller.user.username }, session: { id: caller.session.id } };
  }

  // A JSON body for a Nest route: parsed by express.json(), applied in app.module.ts.
  @Post('notes')
  note(@CurrentUser() user: DemoUser, @Body() body: { text?: unknown }) {
    return { by: user.username, text: typeof body.text === 'string' ? body.text : null };
  }

  // A sensitive route: the sign-in (or a step-up, POST /auth/reauthenticate/) is at most
  // 10 minutes old, else the core's 401 insufficient_user_authentication (docs/step-up.md).
  @Get('security')
  @Fresh(600)
  security(@CurrentSession() caller: AuthContext<DemoUser>) {
    return { session: { id: caller.session.id }, recentSignIn: true };
  }
}
