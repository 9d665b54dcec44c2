import { Body, Controller, Get, Post, UseGuards } from '@nestjs/common';
import type { AuthContext } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';
import { CurrentSession } from './current-session.decorator.js';
import { SessauthGuard } from './sessauth.guard.js';

/** The host's own routes, behind the guard. */
@Controller('me')
@UseGuards(SessauthGuard)
export class MeController {
  @Get()
  me(@CurrentSession() caller: AuthContext<DemoUser>) {
    return { user: { id: caller.user.id, username: caller.user.username }, session: { id: caller.session.id } };
  }

  // A JSON body for a Nest route: parsed by express.json(), applied after sessauth (see app.module.ts).
  @Post('notes')
  note(@CurrentSession() caller: AuthContext<DemoUser>, @Body() body: { text?: unknown }) {
    return { by: caller.user.username, text: typeof body.text === 'string' ? body.text : null };
  }
}
