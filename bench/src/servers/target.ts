import type { Sessauth } from '@sessauth/core';
import type { BenchUser } from '../bench-auth.js';
import type { TokenVerifier } from './jose-verifier.js';

/** What the measured route `GET /me` does, the same in every framework. */
export type Target =
  /** Answers `{"ok":true}`: the framework's own floor. */
  | { readonly kind: 'bare' }
  /** A hand-written guard (jose alone, or jose + one store read). */
  | { readonly kind: 'verify'; readonly verify: TokenVerifier }
  /** sessauth through the framework's adapter: endpoints mounted, `requireAuth` on the route. */
  | { readonly kind: 'sessauth'; readonly auth: Sessauth<BenchUser> };

export const ROUTE = '/me';
export const REFUSED = { error_code: 'invalid_token' } as const;
