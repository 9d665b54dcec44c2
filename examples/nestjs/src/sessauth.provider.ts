import type { Provider } from '@nestjs/common';
import type { Sessauth } from '@sessauth/core';
import type { DemoUser } from '@sessauth/example-shared';

/** The injection token of the engine: `@Inject(SESSAUTH) auth: Sessauth<DemoUser>`. */
export const SESSAUTH = Symbol('sessauth');

/** The engine as a Nest provider: built once, before the app starts (createSessauth is async). */
export function sessauthProvider(auth: Sessauth<DemoUser>): Provider {
  return { provide: SESSAUTH, useValue: auth };
}
