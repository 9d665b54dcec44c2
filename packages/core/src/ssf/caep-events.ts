import type { CaepEventName } from '../options/ssf-receiver.js';

/** CAEP 1.0 event type URIs, the keys of a SET's `events` claim. */
export const CAEP_EVENT_TYPES: Readonly<Record<CaepEventName, string>> = {
  'session-revoked': 'https://schemas.openid.net/secevent/caep/event-type/session-revoked',
  'credential-change': 'https://schemas.openid.net/secevent/caep/event-type/credential-change',
};

/** SSF 1.0's stream verification event. */
export const SSF_VERIFICATION_EVENT_TYPE = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

/** RFC 8935's push delivery method, as SSF names it. */
export const PUSH_DELIVERY_METHOD = 'urn:ietf:rfc:8935';

/** CAEP's `initiating_entity`: who caused the change. */
export type InitiatingEntity = 'admin' | 'user' | 'policy' | 'system';

/** What the session domain reports; the writer turns each into one SET per interested stream. */
export type SecurityEventFacts =
  | {
      readonly event: 'session-revoked';
      readonly userId: string;
      /** The one session ended; null: every active session of the user. */
      readonly sessionId: string | null;
      /** The core's revocation reason (`logout`, `reuse`...), sent in `reason_admin`. */
      readonly reason: string;
      readonly initiatingEntity: InitiatingEntity;
      readonly at: Date;
    }
  | {
      readonly event: 'credential-change';
      readonly userId: string;
      readonly initiatingEntity: InitiatingEntity;
      readonly at: Date;
    };

// What each reason means, for the receiver's operators (CAEP's `reason_admin`, English only).
const REASON_TEXT: Readonly<Record<string, string>> = {
  logout: 'logout: the user signed out of this session',
  delete: 'delete: the session was ended from the session list or by the service',
  logout_all: 'logout_all: the user signed out of every session',
  logout_others: 'logout_others: the user signed out of every other session',
  invalidate_all: 'invalidate_all: every session of the user was ended (password change or the service)',
  reuse: 'reuse: a consumed refresh token was presented again (possible token theft)',
  security_changed: 'security_changed: the account security stamp changed',
  idle: 'idle: the session was unused for longer than the idle timeout',
};

/** RFC 9493 subject identifiers, as SSF's `sub_id` carries them. */
export function subjectOf(issuer: string, userId: string, sessionId: string | null): Readonly<Record<string, unknown>> {
  const user = { format: 'iss_sub', iss: issuer, sub: userId };
  return sessionId === null ? user : { format: 'complex', user, session: { format: 'opaque', id: sessionId } };
}

/** The `events` claim of one SET: exactly one event, as SSF 1.0 requires. */
export function eventsClaimOf(facts: SecurityEventFacts): Readonly<Record<string, unknown>> {
  const eventTimestamp = Math.floor(facts.at.getTime() / 1000);
  if (facts.event === 'credential-change') {
    return {
      [CAEP_EVENT_TYPES['credential-change']]: {
        credential_type: 'password',
        change_type: 'update',
        event_timestamp: eventTimestamp,
        initiating_entity: facts.initiatingEntity,
      },
    };
  }
  return {
    [CAEP_EVENT_TYPES['session-revoked']]: {
      event_timestamp: eventTimestamp,
      initiating_entity: facts.initiatingEntity,
      reason_admin: { en: REASON_TEXT[facts.reason] ?? facts.reason },
    },
  };
}
