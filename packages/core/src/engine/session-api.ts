import type { Engine } from '../endpoints/engine.js';
import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import { type AuthenticationFacts, checkAuthenticationFacts, stepUpSession } from '../sessions/step-up.js';
import type { PublicSession } from '../http/wire-types.js';
import { createSessionFor, type CreatedSession, type CreateSessionForInput } from './create-session-for.js';
import { endAllSessions } from '../sessions/end-all-sessions.js';
import { listUserSessions } from '../sessions/list-user-sessions.js';
import { isSessionIdShape, revokeSession } from '../sessions/revoke-session.js';
import { toPublicSessions } from '../endpoints/public-session.js';
import { toPublicActivity } from '../endpoints/public-activity.js';
import { readActivity } from '../sessions/session-activity.js';
import type { PublicActivityEntry } from '../http/wire-types.js';

/** The server-side session API of `Sessauth`: the endpoints' behaviour for host code, same rules and events. */
export interface SessionApi {
  /**
   * A new session for a user the host authenticated its own way (after sign-up, an OAuth
   * callback, a magic link). The user is read through `users.findById`: unknown or inactive
   * rejects with `SessauthError('invalid_user')`. Applies JWT_MAX_ACTIVE_SESSIONS like the
   * login, records the browser summary and location like the login, fires `login`.
   */
  createSessionFor(userId: string, input?: CreateSessionForInput): Promise<CreatedSession>;
  /**
   * The user's active sessions exactly as `GET {prefix}/sessions/` shows them (newest first,
   * idle ones left out); `is_current` is true only for `currentSessionId`.
   */
  listSessions(userId: string, options?: { readonly currentSessionId?: string }): Promise<PublicSession[]>;
  /**
   * Revoke one active session of the user (the rules of `DELETE {prefix}/sessions/{id}/`):
   * true when it ended (fires `revoke` with reason `delete`); false for another user's,
   * an ended, an unknown or a malformed id.
   */
  revokeSession(userId: string, sessionId: string): Promise<boolean>;
  /**
   * End every active session of the user in one bulk update (fires `revoke` with reason
   * `invalidate_all`), except `except` when given: a password change that keeps this device
   * (`{ except: caller.session.id }`). Returns how many ended. An `except` that is not one of
   * the user's active sessions keeps nothing.
   */
  invalidateAllForUser(userId: string, options?: { readonly except?: string }): Promise<number>;
  /**
   * Step-up for a factor the host checked its own way (a TOTP code, a passkey): raises the
   * session's `authTime` to now and records `amr` / `acr` in one atomic store write (RFC 9470),
   * fires `step_up`, and resolves a fresh access token carrying `auth_time` (and `acr`). No new
   * session. Rejects with `SessauthError('session_expired')` when the session is not an active
   * one of this user; throws an `IntegrationError` when the store has no `recordStepUp`.
   */
  stepUp(userId: string, sessionId: string, facts: AuthenticationFacts): Promise<{ readonly access_token: string }>;
  /**
   * The activity history of one session of the user (JWT_SESSION_ACTIVITY), oldest first, as
   * `GET {prefix}/sessions/{id}/activity/` shows it. Unlike the route it also reads an ended
   * session's history, while its entries are kept (for a support desk or an investigation);
   * another user's session, an unknown or a malformed id give `[]`. Throws an `IntegrationError`
   * when JWT_SESSION_ACTIVITY is off.
   */
  listActivity(userId: string, sessionId: string): Promise<PublicActivityEntry[]>;
}

export function sessionApi<U>(engine: Engine<U>): SessionApi {
  return {
    createSessionFor: (userId, input) => createSessionFor(engine, userId, input),
    listSessions: async (userId, options = {}) => {
      checkUserId('listSessions', userId);
      const current = options.currentSessionId ?? '';
      return toPublicSessions(engine, await listUserSessions(engine, userId), current);
    },
    revokeSession: async (userId, sessionId) => {
      checkUserId('revokeSession', userId);
      return revokeSession(engine, userId, sessionId, 'delete', 'admin');
    },
    invalidateAllForUser: async (userId, options = {}) => {
      checkUserId('invalidateAllForUser', userId);
      const { except } = options;
      if (except !== undefined && typeof except !== 'string') throw new IntegrationError('invalidateAllForUser: except must be a session id');
      // An id no session can have keeps nothing: the store is not asked to match it.
      return endAllSessions(engine, userId, 'invalidate_all', isSessionIdShape(except) ? except : undefined, 'admin');
    },
    stepUp: async (userId, sessionId, facts) => {
      checkUserId('stepUp', userId);
      const checked = checkAuthenticationFacts('stepUp', facts ?? {}, []);
      if (typeof engine.store.recordStepUp !== 'function') throw new IntegrationError('stepUp needs a store with recordStepUp');
      const session = isSessionIdShape(sessionId) ? await engine.store.findSession(sessionId) : null;
      if (session === null || session.userId !== userId) throw new SessauthError('session_expired');
      return { access_token: await stepUpSession(engine, session, checked) };
    },
    listActivity: async (userId, sessionId) => {
      checkUserId('listActivity', userId);
      if (!engine.options.sessionActivity) throw new IntegrationError('listActivity needs JWT_SESSION_ACTIVITY=true');
      if (!isSessionIdShape(sessionId)) return [];
      return ((await readActivity(engine, userId, [sessionId])).get(sessionId) ?? []).map(toPublicActivity);
    },
  };
}

function checkUserId(method: string, userId: unknown): void {
  if (typeof userId !== 'string' || userId === '') throw new IntegrationError(`${method}: userId must be a non-empty string`);
}
