import type { SecurityEventOutbox } from './security-event-outbox.js';
import { IntegrationError } from '../errors/sessauth-error.js';
import type { Location } from '../geo/location.js';
import type { ActivityEntry, ActivityQuery, AppendActivityInput } from './activity-port.js';

/** One stored session: one logged-in device. Timestamps are `Date`s in UTC. */
export interface SessionRecord {
  /** Opaque, unguessable id (the `sid` claim). */
  readonly id: string;
  /** The owner, as the `sub` claim (always a string). */
  readonly userId: string;
  /** The only refresh-token `jti` that is accepted now. */
  readonly refreshJti: string;
  /** HMAC of the user's security stamp at login; a change of stamp kills the session. */
  readonly securityStamp: string;
  readonly createdAt: Date;
  readonly lastActivityAt: Date;
  /** Natural (absolute) end of the session. */
  readonly expiresAt: Date;
  /** Set when revoked. A session with `expiredAt` set is never active again. */
  readonly expiredAt: Date | null;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
  readonly browser: string | null;
  readonly location: Location | null;
  /**
   * The device name its user gave it (`PATCH {prefix}/sessions/{id}/`), trimmed, 1..64
   * characters; null until named. Optional in the type so older stores still compile; the
   * stores of this project always set it.
   */
  readonly name?: string | null;
  /**
   * When the user last proved who they are on this session (login, `createSessionFor`, a
   * step-up): RFC 9470's `auth_time`. A refresh never changes it. Optional in the type so
   * older stores still compile; absent (or a row from before it was stored) reads as `createdAt`.
   */
  readonly authTime?: Date;
  /** How they proved it then (RFC 8176 values: `pwd`, `otp`, `hwk`...); absent: unknown. */
  readonly amr?: readonly string[];
  /** The authentication context class reached then, when the host names one; null: none. */
  readonly acr?: string | null;
  /**
   * The RFC 7638 SHA-256 thumbprint (base64url) of the DPoP key this session is bound to
   * (JWT_DPOP, RFC 9449), set at login and never changed; null or absent: not bound (every
   * session before DPoP, and every session of a host that leaves it off).
   */
  readonly dpopJkt?: string | null;
  /**
   * The public key (a JWK, as JSON text) of the browser's Device Bound Session Credentials key
   * this session is bound to (JWT_DEVICE_BOUND_COOKIES, docs/device-bound-cookies.md): set once
   * by `bindDeviceKey` after login, never changed; null or absent: not bound.
   */
  readonly deviceBoundKey?: string | null;
}

/** What login hands to `createSession` (a new session has no name yet). */
export type NewSession = Omit<SessionRecord, 'expiredAt' | 'lastActivityAt' | 'name'>;

export interface CreateSessionInput {
  readonly session: NewSession;
  /**
   * The per-user cap of active sessions, this new one included. The store revokes
   * the user's oldest active sessions so that at most this many stay active, in the
   * same atomic step as the insert: concurrent logins can never exceed it.
   */
  readonly maxActiveSessions: number;
}

/** What `SessionStore.recordStepUp` writes: the facts of a fresh proof of identity. */
export interface StepUpInput {
  readonly sessionId: string;
  readonly userId: string;
  /** The new `auth_time` (the moment of the step-up). */
  readonly authTime: Date;
  /** The methods of this proof; they replace the session's `amr`. */
  readonly amr: readonly string[];
  /** The context class of this proof; replaces the session's `acr` (null: none). */
  readonly acr: string | null;
  /** Liveness is judged at this instant (usually equal to `authTime`). */
  readonly now: Date;
}

/** What `SessionStore.bindDeviceKey` writes: a browser's DBSC public key, once. */
export interface BindDeviceKeyInput {
  readonly sessionId: string;
  /** The session's owner (as read just before): a session of another user is left alone. */
  readonly userId: string;
  /** The public JWK as JSON text (at most 8 KiB). */
  readonly publicKey: string;
  /** Liveness is judged at this instant. */
  readonly now: Date;
}

/** Options of `SessionStore.expireAllForUser`. */
export interface ExpireAllOptions {
  /** The one session to keep (for example the device a password was just changed on). */
  readonly exceptSessionId?: string;
}

export interface RotateRefreshInput {
  readonly sessionId: string;
  readonly userId: string;
  /** The `jti` of the refresh token the client presented. */
  readonly presentedJti: string;
  /** The `jti` of the replacement token, minted before the swap. */
  readonly nextJti: string;
  /** HMAC of the user's current security stamp. */
  readonly securityStamp: string;
  readonly now: Date;
  /**
   * The idle timeout's cutoff (JWT_SESSION_IDLE_SECONDS), when it is on: an active session
   * whose `lastActivityAt` is at or before it is refused with `idle` and revoked, in the same
   * atomic step as the swap. Absent: no idle check.
   */
  readonly idleCutoff?: Date;
}

/**
 * Result of `rotateRefresh`. Failures are values, not exceptions.
 * - `consumed`: the swap committed; `session` is the record after it.
 * - `missing`: no session with that id. Nothing changed.
 * - `wrong_user`: the session belongs to someone else. Nothing changed.
 * - `expired`: the session is revoked or past `expiresAt`. Nothing changed.
 * - `idle`: the session was active but idle (`lastActivityAt <= idleCutoff`); it is now
 *   revoked. Checked after `expired` and before the stamp and the jti.
 * - `security_changed`: the stamp differs; the session is now revoked.
 * - `reused`: the session was active but `presentedJti` is not the current jti;
 *   the session is now revoked (committed before this value is returned).
 */
export type RotateOutcome =
  | { readonly status: 'consumed'; readonly session: SessionRecord }
  | { readonly status: 'missing' | 'wrong_user' | 'expired' | 'idle' | 'security_changed' | 'reused' };

/** Filters of the administrative listing (newest first, keyset-paginated). */
export interface AdminSessionQuery {
  readonly userId?: string;
  readonly status?: 'active' | 'revoked';
  readonly now: Date;
  readonly limit: number;
  /** Opaque cursor returned by the previous page. */
  readonly after?: string;
}

export interface AdminSessionPage {
  readonly sessions: SessionRecord[];
  readonly nextCursor: string | null;
}

/**
 * The storage port. A session is *active* when `expiredAt === null` and
 * `expiresAt > now`. Every method either does its whole job or throws a
 * `StoreUnavailableError`; a store never returns a partial result.
 * Prove an implementation with `describeStoreConformance` from `@sessauth/conformance`.
 */
export interface SessionStore extends Partial<SecurityEventOutbox> {
  /**
   * Insert the session and, in the same atomic step, revoke (set `expiredAt = now`
   * where `now = session.createdAt`) the user's oldest active sessions beyond
   * `maxActiveSessions`. Oldest means smallest `createdAt`, ties broken by id.
   */
  createSession(input: CreateSessionInput): Promise<SessionRecord>;

  /** One read by id; returns revoked and expired records too (the caller decides). */
  findSession(id: string): Promise<SessionRecord | null>;

  /**
   * Many reads by id in one round trip (one statement, one pipeline): an optional
   * capability, which the core uses to coalesce the guard's reads of concurrent requests
   * (`JWT_COALESCE_SESSION_READS`). Its guarantee, which the freshness of every guarded
   * request rests on:
   * - each row is read after this call started, never served from a copy taken before it
   *   (no cache of rows, no read shared with an earlier call);
   * - the map holds, for each id that has a row, that row exactly as `findSession(id)`
   *   would return it at that moment (revoked and expired records too); an id without a
   *   row is absent; duplicate ids are allowed;
   * - any number of ids is accepted (the store splits a long list into bounded
   *   statements itself), under the same deadline as one `findSession`;
   * - it does its whole job or rejects (`StoreUnavailableError`): never a partial map.
   *
   * Leave it out where a read is synchronous and cannot wait on anything (SQLite): there
   * is nothing to coalesce.
   */
  findSessions?(ids: readonly string[]): Promise<Map<string, SessionRecord>>;

  /** The user's active sessions at `now`, newest first. */
  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]>;

  /**
   * Atomic compare-and-swap of the live refresh jti on session id, user id, live
   * expiry, security stamp and current jti. Under concurrent calls with the same
   * `presentedJti`, exactly one caller gets `consumed`; every other gets `reused`
   * (or `expired` once the session is revoked), and the session ends revoked.
   * A consumed rotation also sets `lastActivityAt = now`.
   */
  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome>;

  /** Revoke one active session owned by `userId`. False when there was none to revoke. */
  expireSession(id: string, userId: string, now: Date): Promise<boolean>;

  /**
   * Revoke every active session of the user in one bulk operation; returns how many.
   * With `options.exceptSessionId` that one session (when it is the user's) stays as it
   * is and is not counted: a password change that keeps the device it was made on.
   */
  expireAllForUser(userId: string, now: Date, options?: ExpireAllOptions): Promise<number>;

  /**
   * Set the device name of one active session owned by `userId` (the caller validated and
   * trimmed it). False when there is no such session, it is someone else's, or it is not
   * active at `now` (nothing changes then); true when it is set, even to the name it had.
   */
  renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean>;

  /**
   * Record a step-up on one active session owned by `userId`: set `authTime`, `amr` and
   * `acr` to the input's, all three in one atomic write (a reader never sees a new
   * `authTime` with the old `amr`), and only while the session is active at `now` with that
   * owner: it never revives a revoked session and never touches another user's. Resolves
   * true when written, false when there was no such active session (nothing changed).
   * Nothing else changes (the refresh jti, the expiry, the activity time stay).
   * An optional capability: without it `POST {prefix}/reauthenticate/` answers 404
   * `not_found` and `auth.stepUp` throws an `IntegrationError`.
   */
  recordStepUp?(input: StepUpInput): Promise<boolean>;

  /**
   * Bind one active session to a browser's DBSC key (JWT_DEVICE_BOUND_COOKIES): set
   * `deviceBoundKey` only while the session is active at `now` and has none yet, in one atomic
   * conditional write (two registrations racing: exactly one wins). Resolves true when written,
   * false otherwise (nothing changed). An optional capability: without it the DBSC endpoints
   * answer 404 `not_found` and login sends no registration header.
   */
  bindDeviceKey?(input: BindDeviceKeyInput): Promise<boolean>;

  /**
   * Append entries to sessions' activity histories (JWT_SESSION_ACTIVITY; docs/activity.md):
   * one atomic write per call. The entries are stored as given (their ids are minted by the
   * core and unique); in the same step each session named in them keeps only its newest
   * `maxEntriesPerSession` entries (by id), so a reader never sees a history longer than
   * the bound. Append-only otherwise: an entry is never changed, only pruned by the bound,
   * or deleted by `purgeExpired` once its `expiresAt` has passed. It does not check that
   * the session exists (a revocation's entry may outlive the session row) and never
   * changes a session. An optional capability, needed only when the host turns
   * JWT_SESSION_ACTIVITY on (`createSessauth` refuses a store without it then).
   */
  appendActivity?(input: AppendActivityInput): Promise<void>;

  /**
   * The activity of the given sessions of `query.userId`, oldest first (by id) within each
   * session, entries with `expiresAt <= now` left out: one read (one statement, one
   * pipeline). The map holds a key for each requested session that has at least one such
   * entry of that user; another user's entries are never returned. Optional, with
   * `appendActivity`.
   */
  listActivity?(query: ActivityQuery): Promise<Map<string, ActivityEntry[]>>;

  /**
   * Record activity. Called at most once a minute per session, off the request's
   * critical path; it never revives a revoked session.
   */
  touchSession(id: string, now: Date): Promise<void>;

  /**
   * Delete sessions that are revoked (`expiredAt < now`) or past their natural
   * expiry (`expiresAt < now`), in bounded batches. Returns how many were deleted.
   * A store with `appendActivity` also deletes, in the same run, the activity entries whose
   * `expiresAt` is before `now` (not counted in the result); a deleted session's
   * entries stay until then.
   */
  purgeExpired(now: Date): Promise<number>;

  /**
   * The read-only administrative listing across users. An optional capability: needed
   * only when the host turns the admin listing on (`admin` in `createSessauth`, or
   * `createAdminListing`), which refuses at start-up a store without it.
   */
  listSessionsForAdmin?(query: AdminSessionQuery): Promise<AdminSessionPage>;

  /**
   * An optional start-up check that the backing schema is what this store needs;
   * `createSessauth` calls it once before it resolves. Keep it to one cheap round
   * trip, under the store's own deadline.
   * - Resolve when the schema is complete.
   * - Reject with `StoreSchemaError` (table, missing columns, the migration that adds
   *   them) when it definitely is not: `createSessauth` rejects with it, so a host
   *   never serves from a half-migrated database.
   * - Reject with `StoreUnavailableError` when the backing service cannot be asked:
   *   `createSessauth` logs `store_unverified` and starts; calls answer 503 until the
   *   store is back. A store with no schema (Redis) may just check that it answers.
   */
  checkSchema?(): Promise<void>;

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens); still called when `checkSchema` is absent. */
  verify?(): Promise<void>;
}

/** One counter of `RateLimitStore.hitMany`. */
export interface RateLimitHit {
  readonly key: string;
  readonly windowSec: number;
  /** The most hits its window allows: a new count above it refuses, and the hits after it are not made. */
  readonly limit: number;
}

/** A fixed-window counter shared by every instance (the rate-limit port). */
export interface RateLimitStore {
  /**
   * Atomically add one to `key` and return the new count. The first hit of a
   * window sets its expiry to `windowSec` from now; `resetAt` is when it ends.
   * Throws when the counter cannot be read: the caller denies the request.
   */
  hit(key: string, windowSec: number, now: Date): Promise<{ count: number; resetAt: Date }>;

  /**
   * Several hits in one round trip (one statement, one script): an optional capability, which
   * the core uses when a login spends more than one budget (its address's, its network's, its
   * account's). Without it the core calls `hit` once per budget. Its guarantee:
   * - the hits are made in the given order, each exactly as `hit(key, windowSec, now)` makes it;
   * - it stops at the first hit whose new count is above its `limit`: the keys after that one
   *   are not counted at all (a refused budget spends nothing of the next ones);
   * - it resolves with the results of the hits it made, in order: one per hit when none was
   *   refused, else up to and including the refused one;
   * - the keys of one call are distinct;
   * - it resolves only once every hit it made is counted, or rejects (the core then refuses
   *   the request with 503, as for `hit`); a store whose keys cannot share one step (a Redis
   *   cluster) may make the hits one by one, in order.
   */
  hitMany?(hits: readonly RateLimitHit[], now: Date): Promise<Array<{ count: number; resetAt: Date }>>;

  /** The optional start-up check, with the same contract as `SessionStore.checkSchema`. */
  checkSchema?(): Promise<void>;

  /** @deprecated Renamed `checkSchema`; still called when `checkSchema` is absent. */
  verify?(): Promise<void>;
}

/**
 * The store's `listSessionsForAdmin`, looked up on each call (so a wrapped or replaced
 * method is honoured); a store without the capability rejects with an IntegrationError.
 */
export function adminListerOf(store: SessionStore): (query: AdminSessionQuery) => Promise<AdminSessionPage> {
  return (query) => {
    const list = store.listSessionsForAdmin;
    if (list === undefined) return Promise.reject(new IntegrationError(`this store has no listSessionsForAdmin, which the admin listing needs`));
    return list.call(store, query);
  };
}
