import { SessauthError } from '../errors/sessauth-error.js';
import type { ActivityEntry, ActivityQuery, AppendActivityInput } from './activity-port.js';
import { decodeAdminCursor, encodeAdminCursor } from './admin-cursor.js';
import type {
  AdminSessionPage,
  AdminSessionQuery,
  BindDeviceKeyInput,
  CreateSessionInput,
  ExpireAllOptions,
  RotateOutcome,
  RotateRefreshInput,
  SessionRecord,
  SessionStore,
  StepUpInput,
} from './store-port.js';
import type { NewSecurityEvent, SecurityEventOutcome, SecurityEventRecord } from './security-event-outbox.js';

type StoredSession = { -readonly [K in keyof SessionRecord]: SessionRecord[K] };

/**
 * A deep copy, so neither callers nor the store can change the other's objects. Field by
 * field, one object shape: this runs on every guarded request, and a spread of the record
 * cost several times more.
 */
function copy(record: SessionRecord): StoredSession {
  return {
    id: record.id,
    userId: record.userId,
    refreshJti: record.refreshJti,
    securityStamp: record.securityStamp,
    createdAt: new Date(record.createdAt.getTime()),
    lastActivityAt: new Date(record.lastActivityAt.getTime()),
    expiresAt: new Date(record.expiresAt.getTime()),
    expiredAt: record.expiredAt === null ? null : new Date(record.expiredAt.getTime()),
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    browser: record.browser,
    location: record.location === null ? null : { ...record.location },
    name: record.name ?? null,
    authTime: new Date((record.authTime ?? record.createdAt).getTime()),
    amr: [...(record.amr ?? [])],
    acr: record.acr ?? null,
    // Named only on a bound session, as every store reads it back.
    ...((record.dpopJkt ?? null) === null ? {} : { dpopJkt: record.dpopJkt }),
    ...((record.deviceBoundKey ?? null) === null ? {} : { deviceBoundKey: record.deviceBoundKey }),
  };
}

function copyEntry(entry: ActivityEntry): ActivityEntry {
  return {
    ...entry,
    at: new Date(entry.at.getTime()),
    expiresAt: new Date(entry.expiresAt.getTime()),
    location: entry.location === null ? null : { ...entry.location },
  };
}

function byId(a: ActivityEntry, b: ActivityEntry): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function isActiveAt(record: SessionRecord, nowMs: number): boolean {
  return record.expiredAt === null && record.expiresAt.getTime() > nowMs;
}

/** Newest first: `createdAt` desc, then id desc (UTF-16 code-unit order). */
function newestFirst(a: SessionRecord, b: SessionRecord): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * The reference `SessionStore`, in this process's memory. No method awaits
 * anything: each does its whole job in one synchronous run, so it is atomic with
 * respect to every other call in the process (that is the whole concurrency story).
 * Records are copied on the way in and out. For tests, demos and single-process
 * development: sessions vanish on restart and are not shared between instances.
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, StoredSession>();
  readonly #securityEvents = new Map<string, SecurityEventRecord>();
  readonly #idsByUser = new Map<string, Set<string>>();
  /** Each session's activity, oldest first; kept apart from the sessions, which it may outlive. */
  readonly #activity = new Map<string, ActivityEntry[]>();

  /** Number of stored records, revoked and ended ones included (until purged). */
  get size(): number {
    return this.#sessions.size;
  }

  async createSession({ session, maxActiveSessions }: CreateSessionInput): Promise<SessionRecord> {
    if (!Number.isSafeInteger(maxActiveSessions) || maxActiveSessions < 1) {
      throw new RangeError('MemorySessionStore: maxActiveSessions must be a positive integer');
    }
    if (this.#sessions.has(session.id)) throw new Error('MemorySessionStore: duplicate session id');
    const stored = copy({ ...session, lastActivityAt: session.createdAt, expiredAt: null, name: null });
    this.#sessions.set(stored.id, stored);
    let ids = this.#idsByUser.get(stored.userId);
    if (ids === undefined) this.#idsByUser.set(stored.userId, (ids = new Set()));
    ids.add(stored.id);

    // Keep the newest `maxActiveSessions`, i.e. revoke the oldest (createdAt asc, id asc).
    // The newcomer counts too; if it is itself among the oldest it is revoked at once.
    const nowMs = stored.createdAt.getTime();
    const active = this.#userSessions(stored.userId).filter((record) => isActiveAt(record, nowMs));
    active.sort(newestFirst);
    for (const evicted of active.slice(maxActiveSessions)) evicted.expiredAt = new Date(nowMs);
    return copy(stored);
  }

  async findSession(id: string): Promise<SessionRecord | null> {
    const stored = this.#sessions.get(id);
    return stored === undefined ? null : copy(stored);
  }

  /** Every id's record as `findSession` gives it, in one synchronous run. */
  async findSessions(ids: readonly string[]): Promise<Map<string, SessionRecord>> {
    const found = new Map<string, SessionRecord>();
    for (const id of ids) {
      const stored = this.#sessions.get(id);
      if (stored !== undefined) found.set(id, copy(stored));
    }
    return found;
  }

  async listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    const nowMs = now.getTime();
    const active = this.#userSessions(userId).filter((record) => isActiveAt(record, nowMs));
    return active.sort(newestFirst).map(copy);
  }

  async rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    const stored = this.#sessions.get(input.sessionId);
    // The order of these checks is the contract (see RotateOutcome).
    if (stored === undefined) return { status: 'missing' };
    if (stored.userId !== input.userId) return { status: 'wrong_user' };
    if (!isActiveAt(stored, input.now.getTime())) return { status: 'expired' };
    if (input.idleCutoff !== undefined && stored.lastActivityAt.getTime() <= input.idleCutoff.getTime()) {
      stored.expiredAt = new Date(input.now.getTime());
      return { status: 'idle' };
    }
    if (stored.securityStamp !== input.securityStamp) {
      stored.expiredAt = new Date(input.now.getTime());
      return { status: 'security_changed' };
    }
    if (stored.refreshJti !== input.presentedJti) {
      stored.expiredAt = new Date(input.now.getTime());
      return { status: 'reused' };
    }
    stored.refreshJti = input.nextJti;
    stored.lastActivityAt = new Date(input.now.getTime());
    return { status: 'consumed', session: copy(stored) };
  }

  async expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    const stored = this.#sessions.get(id);
    if (stored === undefined || stored.userId !== userId || !isActiveAt(stored, now.getTime())) {
      return false;
    }
    stored.expiredAt = new Date(now.getTime());
    return true;
  }

  async expireAllForUser(userId: string, now: Date, options: ExpireAllOptions = {}): Promise<number> {
    const nowMs = now.getTime();
    let revoked = 0;
    for (const stored of this.#userSessions(userId)) {
      if (!isActiveAt(stored, nowMs) || stored.id === options.exceptSessionId) continue;
      stored.expiredAt = new Date(nowMs);
      revoked += 1;
    }
    return revoked;
  }

  async renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean> {
    const stored = this.#sessions.get(id);
    if (stored === undefined || stored.userId !== userId || !isActiveAt(stored, now.getTime())) return false;
    stored.name = name;
    return true;
  }

  async recordStepUp(input: StepUpInput): Promise<boolean> {
    const stored = this.#sessions.get(input.sessionId);
    if (stored === undefined || stored.userId !== input.userId || !isActiveAt(stored, input.now.getTime())) return false;
    stored.authTime = new Date(input.authTime.getTime());
    stored.amr = [...input.amr];
    stored.acr = input.acr;
    return true;
  }

  async bindDeviceKey(input: BindDeviceKeyInput): Promise<boolean> {
    const stored = this.#sessions.get(input.sessionId);
    if (
      stored === undefined ||
      stored.userId !== input.userId ||
      !isActiveAt(stored, input.now.getTime()) ||
      (stored.deviceBoundKey ?? null) !== null
    )
      return false;
    stored.deviceBoundKey = input.publicKey;
    return true;
  }

  async appendActivity(input: AppendActivityInput): Promise<void> {
    if (!Number.isSafeInteger(input.maxEntriesPerSession) || input.maxEntriesPerSession < 1) {
      throw new RangeError('MemorySessionStore: maxEntriesPerSession must be a positive integer');
    }
    const touched = new Set<string>();
    for (const entry of input.entries) {
      let history = this.#activity.get(entry.sessionId);
      if (history === undefined) this.#activity.set(entry.sessionId, (history = []));
      history.push(copyEntry(entry));
      touched.add(entry.sessionId);
    }
    for (const sessionId of touched) {
      const history = this.#activity.get(sessionId) ?? [];
      history.sort(byId);
      if (history.length > input.maxEntriesPerSession) history.splice(0, history.length - input.maxEntriesPerSession);
    }
  }

  async listActivity(query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
    const nowMs = query.now.getTime();
    const found = new Map<string, ActivityEntry[]>();
    for (const sessionId of query.sessionIds) {
      const entries = (this.#activity.get(sessionId) ?? []).filter((entry) => entry.userId === query.userId && entry.expiresAt.getTime() > nowMs);
      if (entries.length > 0) found.set(sessionId, entries.map(copyEntry));
    }
    return found;
  }

  async touchSession(id: string, now: Date): Promise<void> {
    const stored = this.#sessions.get(id);
    // A revoked session keeps its last activity: touching must not look like use.
    if (stored !== undefined && stored.expiredAt === null) stored.lastActivityAt = new Date(now.getTime());
  }

  async purgeExpired(now: Date): Promise<number> {
    const nowMs = now.getTime();
    let deleted = 0;
    for (const stored of this.#sessions.values()) {
      const revokedBefore = stored.expiredAt !== null && stored.expiredAt.getTime() < nowMs;
      if (!revokedBefore && stored.expiresAt.getTime() >= nowMs) continue;
      this.#delete(stored);
      deleted += 1;
    }
    for (const [sessionId, history] of this.#activity) {
      const kept = history.filter((entry) => entry.expiresAt.getTime() >= nowMs);
      if (kept.length === 0) this.#activity.delete(sessionId);
      else if (kept.length < history.length) this.#activity.set(sessionId, kept);
    }
    return deleted;
  }

  /**
   * Newest first, keyset-paginated by the shared cursor. `status: 'revoked'` means
   * "not active at `now`": revoked or past its natural end. A malformed cursor is
   * bad client input (400 `invalid_request`), not a store fault.
   */
  async holdSecurityEvents(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
    for (const event of events) {
      if (this.#securityEvents.has(event.id)) continue;
      this.#securityEvents.set(event.id, {
        ...event,
        createdAt: new Date(event.createdAt.getTime()),
        state: 'held',
        attempts: 0,
        nextAttemptAt: new Date(recoverAfter.getTime()),
        lastError: null,
      });
    }
  }

  async releaseSecurityEvents(batchId: string, deliver: boolean, now: Date): Promise<number> {
    let changed = 0;
    for (const [id, event] of this.#securityEvents) {
      if (event.batchId !== batchId || event.state !== 'held') continue;
      if (deliver) this.#securityEvents.set(id, { ...event, state: 'ready', nextAttemptAt: new Date(now.getTime()) });
      else this.#securityEvents.delete(id);
      changed += 1;
    }
    return changed;
  }

  async claimSecurityEvents(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
    const due = [...this.#securityEvents.values()]
      .filter((event) => event.state !== 'dead' && event.nextAttemptAt.getTime() <= now.getTime())
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
    const claimed = due.map((event) => ({ ...event, nextAttemptAt: new Date(leaseUntil.getTime()) }));
    for (const event of claimed) this.#securityEvents.set(event.id, event);
    return claimed.map((event) => ({ ...event, nextAttemptAt: new Date(leaseUntil.getTime()) }));
  }

  async settleSecurityEvent(id: string, outcome: SecurityEventOutcome): Promise<void> {
    const event = this.#securityEvents.get(id);
    if (event === undefined) return;
    if (outcome.kind === 'remove') this.#securityEvents.delete(id);
    else if (outcome.kind === 'retry') {
      this.#securityEvents.set(id, {
        ...event,
        state: 'ready',
        attempts: outcome.attempts,
        nextAttemptAt: new Date(outcome.nextAttemptAt.getTime()),
        lastError: outcome.error,
      });
    } else this.#securityEvents.set(id, { ...event, state: 'dead', attempts: outcome.attempts, lastError: outcome.error });
  }

  async listSessionsForAdmin(query: AdminSessionQuery): Promise<AdminSessionPage> {
    if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
      throw new RangeError('MemorySessionStore: limit must be a positive integer');
    }
    const after = query.after === undefined ? null : decodeAdminCursor(query.after);
    if (query.after !== undefined && after === null) throw new SessauthError('invalid_request');
    const nowMs = query.now.getTime();
    const afterMs = after?.createdAt.getTime() ?? 0;
    const candidates = query.userId === undefined ? [...this.#sessions.values()] : this.#userSessions(query.userId);
    const matching = candidates.filter((record) => {
      if (query.status !== undefined && isActiveAt(record, nowMs) !== (query.status === 'active')) return false;
      if (after === null) return true;
      const ms = record.createdAt.getTime();
      return ms < afterMs || (ms === afterMs && record.id < after.id);
    });
    const page = matching.sort(newestFirst).slice(0, query.limit + 1);
    const more = page.length > query.limit;
    const sessions = page.slice(0, query.limit).map(copy);
    const last = sessions.at(-1);
    const nextCursor = more && last !== undefined ? encodeAdminCursor(last) : null;
    return { sessions, nextCursor };
  }

  #userSessions(userId: string): StoredSession[] {
    const ids = this.#idsByUser.get(userId);
    if (ids === undefined) return [];
    return [...ids].map((id) => this.#sessions.get(id)).filter((s): s is StoredSession => s !== undefined);
  }

  #delete(stored: StoredSession): void {
    this.#sessions.delete(stored.id);
    const ids = this.#idsByUser.get(stored.userId);
    ids?.delete(stored.id);
    if (ids?.size === 0) this.#idsByUser.delete(stored.userId);
  }
}
