import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IntegrationError, type AuthContext, type FreshnessRule, type Sessauth } from '@sessauth/core';
import { guardInput } from '@sessauth/node-http';
import { nodeRequestOf } from './platform-http.js';
import { earlierContextOf, setRequestContext } from './request-context.js';
import { SESSAUTH_FRESH, SESSAUTH_OPTIONAL, SESSAUTH_PUBLIC } from './route-metadata.js';
import { SessauthException } from './sessauth-exception.js';
import { SESSAUTH } from './tokens.js';

/**
 * Guards a controller or route (`@UseGuards(SessauthGuard)`), or every route when registered
 * globally (`SessauthModule.forRoot({ auth, globalGuard: true })`): the core's bearer check, so
 * revocation, idle timeout and the other session rules hold on the host's routes as on the
 * endpoints. `@Public()` routes are let through untouched, `@OptionalAuth()` routes accept an
 * anonymous request, `@Fresh(maxAgeSeconds)` routes also need a recent sign-in or step-up.
 * A refusal is the core's own answer (SessauthException).
 */
@Injectable()
export class SessauthGuard implements CanActivate {
  constructor(
    @Inject(SESSAUTH) private readonly auth: Sessauth<unknown>,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Only HTTP carries a bearer token here; letting another transport through would open it.
    if (context.getType() !== 'http') throw new IntegrationError(`SessauthGuard guards HTTP routes, not a ${context.getType()} context`);
    const targets = [context.getHandler(), context.getClass()];
    const request = context.switchToHttp().getRequest<object>();
    if (this.reflector.getAllAndOverride<boolean | undefined>(SESSAUTH_PUBLIC, targets) === true) {
      setRequestContext(request, null);
      return true;
    }
    const optional = this.reflector.getAllAndOverride<boolean | undefined>(SESSAUTH_OPTIONAL, targets) === true;
    const fresh = this.reflector.getAllAndOverride<FreshnessRule | undefined>(SESSAUTH_FRESH, targets);
    // The guard registered twice (globally and with @UseGuards) authenticates once: a second
    // check would spend a DPoP proof's jti again and be refused as a replay.
    const earlier = earlierContextOf(request);
    if (earlier !== undefined && earlier !== null) {
      if (fresh !== undefined) this.guardedFreshness(earlier, fresh);
      return true;
    }
    // Express's request is the IncomingMessage with originalUrl; Fastify's raw url is already whole.
    const raw = nodeRequestOf(request);
    const input = guardInput(this.auth, raw, (raw as { originalUrl?: string }).originalUrl);
    let caller: AuthContext<unknown> | null;
    try {
      caller = optional && fresh === undefined ? await this.auth.authenticateOptional(input) : await this.auth.authenticate(input);
      if (caller !== null && fresh !== undefined) this.auth.assertFresh(caller, fresh);
    } catch (error) {
      throw new SessauthException(this.auth.errorResponse(error), error);
    }
    setRequestContext(request, caller);
    return true;
  }

  private guardedFreshness(caller: AuthContext<unknown>, fresh: FreshnessRule): void {
    try {
      this.auth.assertFresh(caller, fresh);
    } catch (error) {
      throw new SessauthException(this.auth.errorResponse(error), error);
    }
  }
}
