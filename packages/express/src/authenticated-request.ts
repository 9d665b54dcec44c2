import type { Request } from 'express';
import type { AuthContext } from '@sessauth/core';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `requireAuth`: the authenticated user and session. */
      auth?: AuthContext<unknown>;
    }
  }
}

/** A request that passed `requireAuth`, typed with the host's own user type. */
export type AuthenticatedRequest<U> = Request & { auth: AuthContext<U> };
