import type { SessionRecord, SessionStore } from '@sessauth/core';
import type {
  ActivityEntry,
  ActivityQuery,
  AppendActivityInput,
  AdminSessionPage,
  AdminSessionQuery,
  CreateSessionInput,
  ExpireAllOptions,
  RotateOutcome,
  RotateRefreshInput,
  StepUpInput,
  BindDeviceKeyInput,
  NewSecurityEvent,
  SecurityEventOutcome,
  SecurityEventRecord,
} from '@sessauth/core/store';
import { claimSecurityEvents, holdSecurityEvents, releaseSecurityEvents, settleSecurityEvent } from './security-event-outbox.js';
import type { Kysely } from 'kysely';
import { appendActivity, listActivity, purgeActivity } from './activity.js';
import { listSessionsForAdmin } from './admin-listing.js';
import { createSession } from './create-session.js';
import { findSessions, prepareBatchRead } from './find-sessions.js';
import { purgeExpired } from './purge-expired.js';
import { recordStepUp } from './record-step-up.js';
import { bindDeviceKey } from './bind-device-key.js';
import { renameSession } from './rename-session.js';
import { rotateRefresh } from './rotate-refresh.js';
import { toRecord, unpackSessionRow, type PackedSessionRow, type SessionRow } from './session-row.js';
import { affectedRows, createStoreContext, type KyselyStoreOptions, type StoreContext } from './store-context.js';
import { guard, guardRead } from './store-guard.js';
import { verifySchema } from './verify-schema.js';

export type { KyselyStoreOptions };

/**
 * The session store over a Kysely instance you own (PostgreSQL, MySQL/MariaDB or
 * SQLite). Run `migrateToLatest` first. The store never closes the instance.
 */
export class KyselySessionStore<DB = unknown> implements SessionStore {
  readonly #ctx: StoreContext;

  /**
   * Many sessions by id in one statement per 64 ids (the core coalesces the guard's reads
   * through it): PostgreSQL `id = any($1)`, MySQL/MariaDB a bounded `in (...)`. Absent on
   * SQLite, whose read is synchronous: there is nothing to coalesce.
   */
  readonly findSessions?: (ids: readonly string[]) => Promise<Map<string, SessionRecord>>;

  /** The activity history, with the `activity` option only (migration 0006-session-activity). */
  readonly appendActivity?: (input: AppendActivityInput) => Promise<void>;
  readonly listActivity?: (query: ActivityQuery) => Promise<Map<string, ActivityEntry[]>>;

  constructor(db: Kysely<DB>, options: KyselyStoreOptions = {}) {
    const ctx = createStoreContext(db, options);
    this.#ctx = ctx;
    const statement = prepareBatchRead(ctx.db, ctx.names.session, ctx.dialect);
    if (statement !== undefined) this.findSessions = (ids) => guard('findSessions', ctx.policy, () => findSessions(ctx, statement, ids));
    if (ctx.activity) {
      this.appendActivity = (input) => guard('appendActivity', ctx.policy, () => appendActivity(ctx, input));
      this.listActivity = (query) => guard('listActivity', ctx.policy, () => listActivity(ctx, query));
    }
  }

  /** The Shared Signals outbox (migration 0007-security-event-outbox); see `SecurityEventOutbox` for each guarantee. */
  holdSecurityEvents(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
    return guard('holdSecurityEvents', this.#ctx.policy, () => holdSecurityEvents(this.#ctx, events, recoverAfter));
  }

  releaseSecurityEvents(batchId: string, deliver: boolean, now: Date): Promise<number> {
    return guard('releaseSecurityEvents', this.#ctx.policy, () => releaseSecurityEvents(this.#ctx, batchId, deliver, now));
  }

  claimSecurityEvents(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
    return guard('claimSecurityEvents', this.#ctx.policy, () => claimSecurityEvents(this.#ctx, now, leaseUntil, limit));
  }

  settleSecurityEvent(id: string, outcome: SecurityEventOutcome): Promise<void> {
    return guard('settleSecurityEvent', this.#ctx.policy, () => settleSecurityEvent(this.#ctx, id, outcome));
  }

  createSession(input: CreateSessionInput): Promise<SessionRecord> {
    return guard('createSession', this.#ctx.policy, () => createSession(this.#ctx, input));
  }

  findSession(id: string): Promise<SessionRecord | null> {
    const query = this.#ctx.queries.findSession.bind({ id });
    const direct = this.#ctx.directReads;
    if (direct !== undefined) {
      let rows: ReturnType<typeof direct.readHot>;
      try {
        rows = direct.readHot(query.sql, query.parameters);
      } catch {
        // SQLite: a synchronous failure (SQLITE_BUSY, a missing table) takes the
        // guarded path below, which retries or reports it.
        rows = null;
      }
      // SQLite, no transaction open: one synchronous read that cannot hang, so no
      // deadline timer on the hot path.
      if (Array.isArray(rows)) return Promise.resolve(firstRecord(rows));
      // PostgreSQL: the named statement on a pooled connection, under the call's deadline.
      if (rows !== null) return guardRead('findSession', this.#ctx.policy, rows).then(firstRecord);
    }
    return guard('findSession', this.#ctx.policy, async () => {
      const hot = direct?.readHot(query.sql, query.parameters) ?? null;
      return firstRecord(hot === null ? (await this.#ctx.db.executeQuery(query)).rows : await hot);
    });
  }

  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    return guard('listActiveSessions', this.#ctx.policy, async () => {
      const query = this.#ctx.queries.listActive.bind({ userId, now: now.getTime() });
      return (await this.#ctx.db.executeQuery(query)).rows.map(toRecord);
    });
  }

  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    return guard('rotateRefresh', this.#ctx.policy, () => rotateRefresh(this.#ctx, input));
  }

  expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    return guard('expireSession', this.#ctx.policy, async () => {
      const query = this.#ctx.queries.expireOne.bind({ id, userId, now: now.getTime() });
      return affectedRows(await this.#ctx.db.executeQuery(query)) > 0;
    });
  }

  expireAllForUser(userId: string, now: Date, options: ExpireAllOptions = {}): Promise<number> {
    return guard('expireAllForUser', this.#ctx.policy, async () => {
      const { exceptSessionId } = options;
      const { queries } = this.#ctx;
      const query =
        exceptSessionId === undefined
          ? queries.expireAll.bind({ userId, now: now.getTime() })
          : queries.expireAllExcept.bind({ userId, now: now.getTime(), exceptId: exceptSessionId });
      return affectedRows(await this.#ctx.db.executeQuery(query));
    });
  }

  renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean> {
    return guard('renameSession', this.#ctx.policy, () => renameSession(this.#ctx, id, userId, name, now));
  }

  recordStepUp(input: StepUpInput): Promise<boolean> {
    return guard('recordStepUp', this.#ctx.policy, () => recordStepUp(this.#ctx, input));
  }

  bindDeviceKey(input: BindDeviceKeyInput): Promise<boolean> {
    return guard('bindDeviceKey', this.#ctx.policy, () => bindDeviceKey(this.#ctx, input));
  }

  touchSession(id: string, now: Date): Promise<void> {
    return guard('touchSession', this.#ctx.policy, async () => {
      await this.#ctx.db.executeQuery(this.#ctx.queries.touch.bind({ id, now: now.getTime() }));
    });
  }

  purgeExpired(now: Date): Promise<number> {
    return guard('purgeExpired', this.#ctx.policy, async () => {
      const deleted = await purgeExpired(this.#ctx, now);
      // Activity entries are not sessions: deleted, not counted.
      if (this.#ctx.activity) await purgeActivity(this.#ctx, now);
      return deleted;
    });
  }

  listSessionsForAdmin(query: AdminSessionQuery): Promise<AdminSessionPage> {
    return guard('listSessionsForAdmin', this.#ctx.policy, () => listSessionsForAdmin(this.#ctx, query));
  }

  /**
   * The start-up check (`createSessauth` calls it): the session table, and on
   * MySQL/MariaDB the user-lock table, have every column of every migration. Rejects
   * with `StoreSchemaError` naming the missing table or columns and their migration,
   * or with `StoreUnavailableError` when the database cannot be asked.
   */
  checkSchema(): Promise<void> {
    const { db, dialect, names, policy } = this.#ctx;
    const roles = this.#ctx.activity ? (['session', 'userLock', 'activity'] as const) : (['session', 'userLock'] as const);
    return guard('checkSchema', policy, () => verifySchema(db as Kysely<unknown>, dialect, names, roles));
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }
}

function firstRecord(rows: readonly unknown[]): SessionRecord | null {
  const row = rows[0] as SessionRow | PackedSessionRow | undefined;
  if (row === undefined) return null;
  return toRecord('packed' in row ? unpackSessionRow(row) : row);
}

/** Same as `new KyselySessionStore(db, options)`. */
export function createKyselyStore<DB>(db: Kysely<DB>, options: KyselyStoreOptions = {}): KyselySessionStore<DB> {
  return new KyselySessionStore(db, options);
}
