import type { ErrorCode } from '../errors/error-codes.js';
import type { Location } from '../geo/location.js';

/** Why a session ended. */
export type RevokeReason = 'logout' | 'logout_all' | 'logout_others' | 'delete' | 'invalidate_all' | 'reuse' | 'security_changed' | 'idle';

/** A new session: after a login, a server-side `createSessionFor`, or the admin sign-in. */
export interface LoginEvent {
  readonly userId: string;
  readonly sessionId: string;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
  /** "<browser> on <OS>", as the session list shows it. */
  readonly browser: string | null;
  readonly location: Location | null;
  /** No other active session of the user has this browser summary (or User-Agent, when there is none). */
  readonly isNewDevice: boolean;
  /** No other active session was in this city and country; null when the login has no location. */
  readonly isNewLocation: boolean | null;
}

export interface RefreshEvent {
  readonly userId: string;
  readonly sessionId: string;
}

/** One session ended (`sessionId`), or every active session of the user (`sessionId` null, `count` of them). */
export interface RevokeEvent {
  readonly userId: string;
  readonly sessionId: string | null;
  readonly count: number;
  readonly reason: RevokeReason;
}

/** The theft signal: a consumed refresh token was presented again; the session is revoked. */
export interface ReuseDetectedEvent {
  readonly userId: string;
  readonly sessionId: string;
  /** Where the session was created (the victim's device), as stored. */
  readonly ipAddress: string | null;
  readonly browser: string | null;
  /**
   * The client that presented the consumed token: its address (null when unknown, or with
   * JWT_PERSIST_CLIENT_IP=false), User-Agent (bounded) and browser summary. Either the thief
   * or the owner racing a thief who used the token first.
   */
  readonly replayedBy: { readonly ipAddress: string | null; readonly userAgent: string | null; readonly browser: string | null };
}

/** A fresh proof of identity on an existing session (`POST {prefix}/reauthenticate/` or `auth.stepUp`). */
export interface StepUpEvent {
  readonly userId: string;
  readonly sessionId: string;
  /** How the user proved it (RFC 8176 values). */
  readonly amr: readonly string[];
  readonly acr: string | null;
}

/** A risk signal (JWT_RISK_SIGNALS; docs/risk-signals.md). */
export type RiskSignal = 'new_device' | 'new_network' | 'new_country' | 'impossible_travel' | 'failed_logins_then_success';

/**
 * A risk signal raised at a login or a refresh, also recorded in the session's activity
 * history. Information for the host, which decides (notify, ask for a step-up, revoke):
 * the library never acts on it. Every signal has innocent causes (docs/risk-signals.md).
 */
export interface RiskSignalEvent {
  readonly userId: string;
  readonly sessionId: string;
  readonly signal: RiskSignal;
  /** Where it was computed. */
  readonly during: 'login' | 'refresh';
  /** The client it was raised for (address null with JWT_PERSIST_CLIENT_IP=false). */
  readonly ipAddress: string | null;
  readonly browser: string | null;
  readonly location: Location | null;
  /** `impossible_travel`: the great-circle distance from the last located use, in km; null for the others. */
  readonly distanceKm: number | null;
  /** `impossible_travel`: the speed that move needed, in km/h (-1: both at the same instant); null for the others. */
  readonly speedKmh: number | null;
  /** `failed_logins_then_success`: the attempts at this account within the window before this success; null for the others. */
  readonly failedLogins: number | null;
}

export interface LoginFailedEvent {
  /** `invalid_credentials`, `invalid_user`... as answered. */
  readonly code: ErrorCode;
  /**
   * The submitted username itself, only with JWT_EVENT_RAW_USERNAMES=true (a password typed
   * into the username box would arrive verbatim); null otherwise, and without a string username.
   */
  readonly username: string | null;
  /**
   * A keyed hash (HMAC under a key derived from JWT_SECURITY_STAMP_KEY, else JWT_SECRET_KEY) of
   * the normalised username (trimmed, NFKC, lower-cased): equal for repeated attempts at one
   * account, unreadable without the key. Null without a string username.
   */
  readonly usernameHash: string | null;
  /** The submitted username's length in characters (code points); null without a string username. */
  readonly usernameLength: number | null;
  readonly ipAddress: string | null;
}

/** Every event and its payload. No payload ever holds a token, a password or a secret. */
export interface SessauthEventMap {
  login: LoginEvent;
  refresh: RefreshEvent;
  revoke: RevokeEvent;
  reuse_detected: ReuseDetectedEvent;
  login_failed: LoginFailedEvent;
  step_up: StepUpEvent;
  risk_signal: RiskSignalEvent;
}

export type SessauthEventName = keyof SessauthEventMap;
export type SessauthEventHandler<E extends SessauthEventName> = (event: SessauthEventMap[E]) => void | Promise<void>;

/** Handlers given to `createSessauth({ events })`. */
export type SessauthEventHandlers = { readonly [E in SessauthEventName]?: SessauthEventHandler<E> };
