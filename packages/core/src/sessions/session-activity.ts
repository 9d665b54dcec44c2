import type { RevokeReason } from '../events/session-events.js';
import type { Location } from '../geo/location.js';
import { lookupLocation } from '../geo/lookup-location.js';
import type { ActivityEntry, ActivityKind } from '../store/activity-port.js';
import type { SessionRecord } from '../store/store-port.js';
import { describeUserAgent, storedUserAgent } from '../ua/describe-user-agent.js';
import type { ClientFacts } from './emit-session-events.js';
import { emitRiskSignal } from './emit-session-events.js';
import { loginSignals, type ObservedClient, type RaisedSignal, refreshSignals } from './risk-signals.js';
import type { SessionServices } from './session-services.js';

// The activity history (JWT_SESSION_ACTIVITY; docs/activity.md). Every write happens in a
// state change (login, refresh, step-up, rename, revocation), never in the guard, and is one
// `appendActivity` call after the state change committed. Recording is best effort: the state
// change already happened (a refresh's new token must reach the client, or its next refresh
// would look like theft), so a failed write is logged (`activity_not_recorded`) and the
// request goes on.

/** True when the host turned the history on. */
export function activityOn<U>(services: SessionServices<U>): boolean {
  return services.options.sessionActivity;
}

let lastIdMs = 0;
let idCounter = 0;

/**
 * A fresh entry id that sorts as entries were made: the time in ms (11 base-36 digits, fixed
 * width until the year 5188), a counter of this process (ties within one millisecond), then
 * randomness (ties between instances).
 */
function activityId(now: Date): string {
  const ms = now.getTime();
  if (ms === lastIdMs) idCounter += 1;
  else {
    lastIdMs = ms;
    idCounter = 0;
  }
  const random = globalThis.crypto.getRandomValues(new Uint32Array(2));
  return `${ms.toString(36).padStart(11, '0')}${idCounter.toString(36).padStart(4, '0')}${[...random].map((n) => n.toString(36).padStart(7, '0')).join('')}`;
}

interface EntryFacts {
  readonly kind: ActivityKind;
  readonly ipAddress?: string | null;
  readonly browser?: string | null;
  readonly location?: Location | null;
  readonly detail?: string | null;
}

function entryOf<U>(services: SessionServices<U>, session: { id: string; userId: string }, now: Date, facts: EntryFacts): ActivityEntry {
  return {
    id: activityId(now),
    sessionId: session.id,
    userId: session.userId,
    kind: facts.kind,
    at: now,
    expiresAt: new Date(now.getTime() + services.options.sessionActivityMaxAgeSeconds * 1000),
    ipAddress: services.options.persistClientIp ? (facts.ipAddress ?? null) : null,
    browser: facts.browser ?? null,
    location: facts.location ?? null,
    detail: facts.detail ?? null,
  };
}

async function append<U>(services: SessionServices<U>, entries: readonly ActivityEntry[]): Promise<void> {
  const write = services.store.appendActivity;
  if (entries.length === 0 || write === undefined) return;
  try {
    await write.call(services.store, { entries, maxEntriesPerSession: services.options.sessionActivityMaxEntries });
  } catch (error) {
    services.logger.warn('activity_not_recorded', { kind: entries[0]?.kind ?? null, error: error instanceof Error ? error.name : 'unknown' });
  }
}

/** The history of some of the user's sessions (oldest first each); an empty map without the capability. */
export async function readActivity<U>(
  services: SessionServices<U>,
  userId: string,
  sessionIds: readonly string[],
): Promise<Map<string, ActivityEntry[]>> {
  const read = services.store.listActivity;
  if (read === undefined || sessionIds.length === 0) return new Map();
  return read.call(services.store, { userId, sessionIds, now: services.clock.now() });
}

/** The session's last recorded client: the newest address, browser and located use of its own clients. */
export function lastClientOf(
  session: SessionRecord,
  history: readonly ActivityEntry[],
): { last: ObservedClient; lastLocated: ObservedClient | null } {
  let ipAddress = session.ipAddress;
  let browser = session.browser;
  let at = session.createdAt;
  let lastLocated: ObservedClient | null =
    session.location === null ? null : { ipAddress: session.ipAddress, browser: session.browser, location: session.location, at: session.createdAt };
  for (const entry of history) {
    // A replaying client is not the session's own; a signal repeats its use's client.
    if (entry.kind !== 'created' && entry.kind !== 'refreshed') continue;
    if (entry.ipAddress !== null) ipAddress = entry.ipAddress;
    if (entry.browser !== null) browser = entry.browser;
    at = entry.at;
    if (entry.location !== null) lastLocated = { ipAddress: entry.ipAddress, browser: entry.browser, location: entry.location, at: entry.at };
  }
  return { last: { ipAddress, browser, location: lastLocated?.location ?? null, at }, lastLocated };
}

function signalEntries<U>(
  services: SessionServices<U>,
  session: SessionRecord,
  now: Date,
  during: 'login' | 'refresh',
  client: ObservedClient,
  raised: readonly RaisedSignal[],
): ActivityEntry[] {
  return raised.map((signal) => {
    emitRiskSignal(services, { session, during, client, signal });
    return entryOf(services, session, now, {
      kind: 'risk_signal',
      ipAddress: client.ipAddress,
      browser: client.browser,
      location: client.location,
      detail: signal.signal,
    });
  });
}

/** A new session: its `created` entry and, with JWT_RISK_SIGNALS, the login's signals. */
export async function recordCreated<U>(services: SessionServices<U>, session: SessionRecord, failedLogins: number | null): Promise<void> {
  if (!activityOn(services)) return;
  const now = session.createdAt;
  const client: ObservedClient = { ipAddress: session.ipAddress, browser: session.browser, location: session.location, at: now };
  const entries = [entryOf(services, session, now, { kind: 'created', ...client })];
  if (services.options.riskSignals) {
    try {
      const others = (await services.store.listActiveSessions(session.userId, now)).filter((other) => other.id !== session.id);
      const histories = await readActivity(
        services,
        session.userId,
        others.map((other) => other.id),
      );
      const observed = others.map((other) => {
        const { last, lastLocated } = lastClientOf(other, histories.get(other.id) ?? []);
        return { ipAddress: last.ipAddress, browser: last.browser, location: lastLocated?.location ?? null, at: lastLocated?.at ?? last.at };
      });
      const raised = loginSignals(services.options, {
        current: client,
        others: observed,
        failedLogins,
        failedLoginsThreshold: services.options.riskFailedLogins,
      });
      entries.push(...signalEntries(services, session, now, 'login', client, raised));
    } catch (error) {
      services.logger.warn('risk_signals_not_computed', { during: 'login', error: error instanceof Error ? error.name : 'unknown' });
    }
  }
  await append(services, entries);
}

/**
 * A refresh: a `refreshed` entry carrying the client's address and browser when they differ
 * from the last recorded ones (and then the new address's location), and with JWT_RISK_SIGNALS
 * the refresh's signals. One read of the session's history, one lookup only when the address
 * changed, one write.
 */
export async function recordRefreshed<U>(services: SessionServices<U>, session: SessionRecord, client: ClientFacts): Promise<void> {
  if (!activityOn(services)) return;
  const now = services.clock.now();
  try {
    const history = (await readActivity(services, session.userId, [session.id])).get(session.id) ?? [];
    const { last, lastLocated } = lastClientOf(session, history);
    const ipAddress = services.options.persistClientIp ? client.ipAddress : null;
    const browser = describeUserAgent(storedUserAgent(client.userAgent));
    const ipChanged = ipAddress !== null && ipAddress !== last.ipAddress;
    const browserChanged = browser !== null && browser !== last.browser;
    const location = ipChanged
      ? await lookupLocation(services.geolocation, ipAddress, { timeoutMs: services.options.geolocationTimeoutMs, logger: services.logger })
      : null;
    const entries = [
      entryOf(services, session, now, {
        kind: 'refreshed',
        ipAddress: ipChanged ? ipAddress : null,
        browser: browserChanged ? browser : null,
        location,
      }),
    ];
    if (services.options.riskSignals && ipChanged) {
      const current: ObservedClient = { ipAddress, browser, location, at: now };
      const login: ObservedClient = { ipAddress: session.ipAddress, browser: session.browser, location: session.location, at: session.createdAt };
      entries.push(
        ...signalEntries(services, session, now, 'refresh', current, refreshSignals(services.options, { login, last, lastLocated, current })),
      );
    }
    await append(services, entries);
  } catch (error) {
    services.logger.warn('activity_not_recorded', { kind: 'refreshed', error: error instanceof Error ? error.name : 'unknown' });
  }
}

/** A step-up: the methods of the new proof. */
export function recordSteppedUp<U>(services: SessionServices<U>, session: { id: string; userId: string }, amr: readonly string[]): Promise<void> {
  if (!activityOn(services)) return Promise.resolve();
  return append(services, [
    entryOf(services, session, services.clock.now(), { kind: 'stepped_up', detail: amr.length === 0 ? null : amr.join(',') }),
  ]);
}

/** A rename: the new name. */
export function recordRenamed<U>(services: SessionServices<U>, session: { id: string; userId: string }, name: string): Promise<void> {
  if (!activityOn(services)) return Promise.resolve();
  return append(services, [entryOf(services, session, services.clock.now(), { kind: 'renamed', detail: name })]);
}

/** Why a session ended, as its `revoked` entry says: an event's reason, or the login cap. */
type RevokedDetail = RevokeReason | 'max_active_sessions';

/** One or many revocations with their reason (a bulk logout: one write for all). */
export function recordRevoked<U>(services: SessionServices<U>, userId: string, sessionIds: readonly string[], reason: RevokedDetail): Promise<void> {
  if (!activityOn(services)) return Promise.resolve();
  const now = services.clock.now();
  return append(
    services,
    sessionIds.map((id) => entryOf(services, { id, userId }, now, { kind: 'revoked', detail: reason })),
  );
}

/** Reuse: the replaying client (not the victim's), then the revocation it caused. */
export function recordReuse<U>(services: SessionServices<U>, userId: string, sessionId: string, replay: ClientFacts): Promise<void> {
  if (!activityOn(services)) return Promise.resolve();
  const now = services.clock.now();
  const session = { id: sessionId, userId };
  return append(services, [
    entryOf(services, session, now, {
      kind: 'reuse_detected',
      ipAddress: replay.ipAddress,
      browser: describeUserAgent(storedUserAgent(replay.userAgent)),
    }),
    entryOf(services, session, now, { kind: 'revoked', detail: 'reuse' }),
  ]);
}

/**
 * Before a login's insert (JWT_SESSION_ACTIVITY): the user's active sessions that the login cap
 * (JWT_MAX_ACTIVE_SESSIONS) will revoke inside the insert if nothing else changes, oldest first as
 * the store picks them. One read; [] when the cap is not reached (or the read failed: best effort).
 */
export async function capCandidates<U>(services: SessionServices<U>, userId: string, now: Date): Promise<SessionRecord[]> {
  if (!activityOn(services)) return [];
  try {
    const active = await services.store.listActiveSessions(userId, now);
    const excess = active.length + 1 - services.options.maxActiveSessions;
    if (excess <= 0) return [];
    const oldestFirst = [...active].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return oldestFirst.slice(0, excess);
  } catch (error) {
    services.logger.warn('activity_not_recorded', { kind: 'revoked', error: error instanceof Error ? error.name : 'unknown' });
    return [];
  }
}

/**
 * After the insert: a `revoked` entry (`max_active_sessions`) for each candidate the store did
 * revoke in the login's step (ended at the new session's `createdAt`, the instant the store
 * uses); one batch read, and none when the cap was not reached.
 */
export async function recordCapRevoked<U>(services: SessionServices<U>, candidates: readonly SessionRecord[], session: SessionRecord): Promise<void> {
  if (candidates.length === 0) return;
  try {
    const ids = candidates.map((candidate) => candidate.id);
    const found = services.store.findSessions
      ? await services.store.findSessions(ids)
      : new Map(
          (await Promise.all(ids.map((id) => services.store.findSession(id)))).flatMap((record) =>
            record === null ? [] : [[record.id, record] as const],
          ),
        );
    const ended = ids.filter((id) => found.get(id)?.expiredAt?.getTime() === session.createdAt.getTime());
    await recordRevoked(services, session.userId, ended, 'max_active_sessions');
  } catch (error) {
    services.logger.warn('activity_not_recorded', { kind: 'revoked', error: error instanceof Error ? error.name : 'unknown' });
  }
}
