import type { Location } from '../geo/location.js';

/**
 * What happened to a session, one kind per entry of its activity history
 * (JWT_SESSION_ACTIVITY, off by default; docs/activity.md):
 * - `created`: login, `createSessionFor` or the admin sign-in (the client's address, browser, location);
 * - `refreshed`: a refresh (address and browser only when they differ from the last recorded ones);
 * - `stepped_up`: a fresh proof of identity (`detail`: the methods, comma-separated);
 * - `renamed`: `detail` is the new name;
 * - `revoked`: `detail` is the reason (`logout`, `delete`, `reuse`...);
 * - `reuse_detected`: a consumed refresh token came back (the replaying client's address and browser);
 * - `risk_signal`: `detail` is the signal (`new_device`, `new_network`, `new_country`,
 *   `impossible_travel`, `failed_logins_then_success`), recorded with the client it was raised for.
 */
export type ActivityKind = 'created' | 'refreshed' | 'stepped_up' | 'renamed' | 'revoked' | 'reuse_detected' | 'risk_signal';

/** One entry of a session's activity history, as stored. */
export interface ActivityEntry {
  /**
   * Minted by the core, unique, and ordered as the entries were made (a fixed-width time
   * prefix, then a counter of this process): stores sort by it in code-unit order.
   */
  readonly id: string;
  readonly sessionId: string;
  /** The session's owner. */
  readonly userId: string;
  readonly kind: ActivityKind;
  readonly at: Date;
  /** The end of this entry's retention (`at` + JWT_SESSION_ACTIVITY_MAX_AGE_SECONDS): it is never read after it, and the purge deletes it. */
  readonly expiresAt: Date;
  /** The client's address (null: unknown, unchanged, or JWT_PERSIST_CLIENT_IP=false). */
  readonly ipAddress: string | null;
  /** "<browser> on <OS>" of the client (null: unknown or unchanged). */
  readonly browser: string | null;
  /** Where the address appeared to be, when a geolocation provider said so. */
  readonly location: Location | null;
  /** The kind's one detail (see `ActivityKind`); null for the others. */
  readonly detail: string | null;
}

/** What `SessionStore.appendActivity` writes. */
export interface AppendActivityInput {
  /**
   * The new entries, in order; they may belong to several sessions (a bulk logout), always
   * of one user (the core never mixes users in a call: a store may serialise on the user).
   */
  readonly entries: readonly ActivityEntry[];
  /**
   * The per-session bound (JWT_SESSION_ACTIVITY_MAX_ENTRIES): after the append, each
   * session named in `entries` keeps only its newest `maxEntriesPerSession` entries.
   */
  readonly maxEntriesPerSession: number;
}

/** What `SessionStore.listActivity` reads. */
export interface ActivityQuery {
  /** The user whose sessions these are: another user's entries are never returned. */
  readonly userId: string;
  /** The sessions to read (one for the activity endpoint, the listed ones for the session list). */
  readonly sessionIds: readonly string[];
  /** Entries whose `expiresAt` is at or before it are left out (they wait for the purge). */
  readonly now: Date;
}
