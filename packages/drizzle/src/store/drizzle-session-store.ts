import type {
  ActivityEntry,
  ActivityQuery,
  AppendActivityInput,
  AdminSessionPage,
  AdminSessionQuery,
  CreateSessionInput,
  ExpireAllOptions,
  NewSecurityEvent,
  RotateOutcome,
  RotateRefreshInput,
  SecurityEventOutcome,
  SecurityEventRecord,
  SessionRecord,
  SessionStore,
  StepUpInput,
  BindDeviceKeyInput,
} from '@sessauth/core/store';
import { and, desc, eq, isNull, lt, ne } from 'drizzle-orm';
import type { Table } from 'drizzle-orm';
import type { TableRole } from '../schema/schema-steps.js';
import { appendActivity, listActivity, purgeActivity } from './activity.js';
import { listSessionsForAdmin } from './admin-listing.js';
import { StoreCollationError } from './collation-error.js';
import { activeOf } from './conditions.js';
import { guard } from './guard.js';
import { purgeExpired } from './purge-expired.js';
import { recordStepUp } from './record-step-up.js';
import { bindDeviceKey } from './bind-device-key.js';
import { renameSession } from './rename-session.js';
import type { DrizzleDatabase } from './resolve-engine.js';
import { rotateRefresh } from './rotate-refresh.js';
import type { SessionRow } from './session-row.js';
import { toSessionModelRow, sessionRecordFromModelRow } from '@sessauth/core/store';
import { findSessions } from './find-sessions.js';
import { claimSecurityEvents, holdSecurityEvents, releaseSecurityEvents, settleSecurityEvent } from './security-event-outbox.js';
import { createStoreContext, type DrizzleStoreOptions, type StoreContext } from './store-context.js';
import { verifySchema } from './verify-schema.js';

/**
 * The session store over a drizzle database you own (PostgreSQL, MySQL/MariaDB, or SQLite
 * through better-sqlite3), on the tables of this package's schema files, which you add to your
 * drizzle schema and migrations. The store never closes the database.
 */
export class DrizzleSessionStore implements SessionStore {
  readonly #ctx: StoreContext;

  /** The guard's batched read, on PostgreSQL and MySQL/MariaDB (SQLite reads in process: nothing to coalesce). */
  readonly findSessions?: (ids: readonly string[]) => Promise<Map<string, SessionRecord>>;

  /** The activity history, with the `activity` option only (step 0006-session-activity). */
  readonly appendActivity?: (input: AppendActivityInput) => Promise<void>;
  readonly listActivity?: (query: ActivityQuery) => Promise<Map<string, ActivityEntry[]>>;

  /**
   * The Shared Signals outbox, with the `securityEventOutbox` option only (step
   * 0007-security-event-outbox); see `SecurityEventOutbox` for each guarantee.
   */
  readonly holdSecurityEvents?: (events: readonly NewSecurityEvent[], recoverAfter: Date) => Promise<void>;
  readonly releaseSecurityEvents?: (batchId: string, deliver: boolean, now: Date) => Promise<number>;
  readonly claimSecurityEvents?: (now: Date, leaseUntil: Date, limit: number) => Promise<SecurityEventRecord[]>;
  readonly settleSecurityEvent?: (id: string, outcome: SecurityEventOutcome) => Promise<void>;

  constructor(db: DrizzleDatabase, options: DrizzleStoreOptions = {}) {
    const ctx = createStoreContext(db, options);
    this.#ctx = ctx;
    if (ctx.engine.batchedReads) this.findSessions = (ids) => guard('findSessions', ctx.timeoutMs, () => findSessions(ctx, ids));
    if (ctx.activity) {
      this.appendActivity = (input) => guard('appendActivity', ctx.timeoutMs, () => appendActivity(ctx, input));
      this.listActivity = (query) => guard('listActivity', ctx.timeoutMs, () => listActivity(ctx, query));
    }
    if (ctx.securityEventOutbox) {
      this.holdSecurityEvents = (events, recoverAfter) =>
        guard('holdSecurityEvents', ctx.timeoutMs, () => holdSecurityEvents(ctx, events, recoverAfter));
      this.releaseSecurityEvents = (batchId, deliver, now) =>
        guard('releaseSecurityEvents', ctx.timeoutMs, () => releaseSecurityEvents(ctx, batchId, deliver, now));
      this.claimSecurityEvents = (now, leaseUntil, limit) =>
        guard('claimSecurityEvents', ctx.timeoutMs, () => claimSecurityEvents(ctx, now, leaseUntil, limit));
      this.settleSecurityEvent = (id, outcome) => guard('settleSecurityEvent', ctx.timeoutMs, () => settleSecurityEvent(ctx, id, outcome));
    }
  }

  #guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return guard(operation, this.#ctx.timeoutMs, run);
  }

  createSession(input: CreateSessionInput): Promise<SessionRecord> {
    return this.#guard('createSession', async () =>
      sessionRecordFromModelRow(
        await this.#ctx.engine.insertWithinCap(toSessionModelRow(input.session), input.maxActiveSessions, this.#ctx.timeoutMs),
      ),
    );
  }

  findSession(id: string): Promise<SessionRecord | null> {
    const { engine, t } = this.#ctx;
    return this.#guard('findSession', async () => {
      const [row] = await engine.db.select<SessionRow>().from(t).where(eq(t.id, id));
      return row === undefined ? null : sessionRecordFromModelRow(row);
    });
  }

  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    const { engine, t } = this.#ctx;
    return this.#guard('listActiveSessions', async () => {
      const rows = await engine.db
        .select<SessionRow>()
        .from(t)
        .where(activeOf(t, userId, now.getTime()))
        .orderBy(desc(t.createdAt), desc(t.id));
      return rows.map(sessionRecordFromModelRow);
    });
  }

  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    return this.#guard('rotateRefresh', () => rotateRefresh(this.#ctx, input));
  }

  expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    const { engine, t } = this.#ctx;
    return this.#guard('expireSession', async () => {
      const update = engine.db.update(t).set({ expiredAt: now.getTime() });
      return (await engine.changed(update.where(and(eq(t.id, id), activeOf(t, userId, now.getTime()))))) > 0;
    });
  }

  expireAllForUser(userId: string, now: Date, options: ExpireAllOptions = {}): Promise<number> {
    const { engine, t } = this.#ctx;
    const except = options.exceptSessionId;
    return this.#guard('expireAllForUser', () => {
      const active = activeOf(t, userId, now.getTime());
      const update = engine.db.update(t).set({ expiredAt: now.getTime() });
      return engine.changed(update.where(except === undefined ? active : and(active, ne(t.id, except))));
    });
  }

  renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean> {
    return this.#guard('renameSession', () => renameSession(this.#ctx, id, userId, name, now));
  }

  recordStepUp(input: StepUpInput): Promise<boolean> {
    return this.#guard('recordStepUp', () => recordStepUp(this.#ctx, input));
  }

  bindDeviceKey(input: BindDeviceKeyInput): Promise<boolean> {
    return this.#guard('bindDeviceKey', () => bindDeviceKey(this.#ctx, input));
  }

  /** Never revives a revoked row, never moves activity backwards. */
  touchSession(id: string, now: Date): Promise<void> {
    const { engine, t } = this.#ctx;
    return this.#guard('touchSession', async () => {
      const ms = now.getTime();
      await engine.db
        .update(t)
        .set({ lastActivityAt: ms })
        .where(and(eq(t.id, id), isNull(t.expiredAt), lt(t.lastActivityAt, ms)));
    });
  }

  purgeExpired(now: Date): Promise<number> {
    return this.#guard('purgeExpired', async () => {
      const deleted = await purgeExpired(this.#ctx, now);
      // Activity entries are not sessions: deleted, not counted.
      if (this.#ctx.activity) await purgeActivity(this.#ctx, now);
      return deleted;
    });
  }

  listSessionsForAdmin(query: AdminSessionQuery): Promise<AdminSessionPage> {
    return this.#guard('listSessionsForAdmin', () => listSessionsForAdmin(this.#ctx, query));
  }

  /**
   * The start-up check (`createSessauth` calls it): the session table, on MySQL/MariaDB the
   * user-lock table, and the activity and outbox tables when their options are on, have every
   * column, and on MySQL/MariaDB the compared text columns have a binary collation. Rejects with `StoreSchemaError` (or its `StoreCollationError`), or with
   * `StoreUnavailableError` when the database cannot be asked.
   */
  checkSchema(): Promise<void> {
    const { engine } = this.#ctx;
    return this.#guard('checkSchema', async () => {
      const [session, userLock] = engine.sessionSchema;
      const tables: Array<readonly [TableRole, Table]> = [['session', session!]];
      if (userLock !== undefined) tables.push(['userLock', userLock]);
      if (this.#ctx.activity) tables.push(['activity', engine.tables.activity]);
      if (this.#ctx.securityEventOutbox) tables.push(['securityEvent', engine.tables.securityEvent]);
      await verifySchema(engine.db, tables);
      const wrong = await engine.nonBinaryCollation?.('session');
      if (wrong) throw new StoreCollationError(wrong.table, wrong.column);
    });
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }
}

/** Same as `new DrizzleSessionStore(db, options)`. */
export function createDrizzleStore(db: DrizzleDatabase, options: DrizzleStoreOptions = {}): DrizzleSessionStore {
  return new DrizzleSessionStore(db, options);
}
