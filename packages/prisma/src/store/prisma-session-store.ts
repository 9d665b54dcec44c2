import { appendActivity, listActivity, purgeActivity } from './activity.js';
import { StoreSchemaError } from '@sessauth/core';
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
import type { SessauthPrismaClient } from '../client/prisma-like.js';
import { listSessionsForAdmin } from './admin-listing.js';
import { StoreCollationError } from './collation-error.js';
import { createSession } from './create-session.js';
import { findSessions } from './find-sessions.js';
import { guard } from './guard.js';
import { purgeExpired } from './purge-expired.js';
import { rotateRefresh } from './rotate-refresh.js';
import { isActiveModelRow, sessionRecordFromModelRow } from '@sessauth/core/store';
import { claimSecurityEvents, holdSecurityEvents, releaseSecurityEvents, settleSecurityEvent } from './security-event-outbox.js';
import { activeOf, revokeAt } from './session-writes.js';
import { type ClientContext, type ClientOptions, createClientContext } from './store-context.js';
import { mappedElsewhere, verifySchema } from './verify-schema.js';

export interface PrismaStoreOptions extends ClientOptions {
  /** The session table, when your `@@map` renamed it (the lock table is `<it>_user_lock`). @default 'sessauth_session' */
  tableName?: string;
}

/**
 * The session store over your Prisma Client (Prisma 7 with a driver adapter: PostgreSQL,
 * MySQL/MariaDB or SQLite), on the models of this package's `sessauth.prisma`, which you add to
 * your schema with its migration. The store never disconnects the client.
 */
export class PrismaSessionStore implements SessionStore {
  readonly #ctx: ClientContext;

  /** The guard's batched read, on PostgreSQL and MySQL/MariaDB (SQLite reads in process: nothing to coalesce). */
  readonly findSessions?: (ids: readonly string[]) => Promise<Map<string, SessionRecord>>;

  /** The activity history, with the `activity` option only (migration 0004_sessauth_session_activity). */
  readonly appendActivity?: (input: AppendActivityInput) => Promise<void>;
  readonly listActivity?: (query: ActivityQuery) => Promise<Map<string, ActivityEntry[]>>;

  /**
   * The Shared Signals outbox, with the `securityEventOutbox` option only (migration
   * 0005_sessauth_security_event_outbox); see `SecurityEventOutbox` for each guarantee.
   */
  readonly holdSecurityEvents?: (events: readonly NewSecurityEvent[], recoverAfter: Date) => Promise<void>;
  readonly releaseSecurityEvents?: (batchId: string, deliver: boolean, now: Date) => Promise<number>;
  readonly claimSecurityEvents?: (now: Date, leaseUntil: Date, limit: number) => Promise<SecurityEventRecord[]>;
  readonly settleSecurityEvent?: (id: string, outcome: SecurityEventOutcome) => Promise<void>;

  constructor(prisma: SessauthPrismaClient, options: PrismaStoreOptions) {
    const ctx = createClientContext(
      prisma,
      options,
      { session: options.tableName ?? 'sessauth_session', rateLimit: 'sessauth_rate_limit' },
      'sessauthSession',
    );
    this.#ctx = ctx;
    if (ctx.sql.batchedReads) this.findSessions = (ids) => guard('findSessions', ctx.timeoutMs, () => findSessions(ctx, ids));
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

  #guard<T>(operation: string, run: () => PromiseLike<T>): Promise<T> {
    return guard(operation, this.#ctx.timeoutMs, async () => run());
  }

  get #sessions() {
    return this.#ctx.client.sessauthSession;
  }

  createSession(input: CreateSessionInput): Promise<SessionRecord> {
    return this.#guard('createSession', () => createSession(this.#ctx, input));
  }

  findSession(id: string): Promise<SessionRecord | null> {
    return this.#guard('findSession', async () => {
      const row = await this.#sessions.findUnique({ where: { id } });
      return row === null ? null : sessionRecordFromModelRow(row);
    });
  }

  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    return this.#guard('listActiveSessions', async () => {
      const rows = await this.#sessions.findMany({ where: activeOf(userId, now.getTime()), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return rows.map(sessionRecordFromModelRow);
    });
  }

  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    return this.#guard('rotateRefresh', () => rotateRefresh(this.#ctx, input));
  }

  expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    return this.#guard('expireSession', async () => {
      const { count } = await this.#sessions.updateMany({ where: { id, ...activeOf(userId, now.getTime()) }, data: revokeAt(now.getTime()) });
      return count > 0;
    });
  }

  expireAllForUser(userId: string, now: Date, options: ExpireAllOptions = {}): Promise<number> {
    const except = options.exceptSessionId;
    return this.#guard('expireAllForUser', async () => {
      const where = { ...activeOf(userId, now.getTime()), ...(except === undefined ? {} : { id: { not: except } }) };
      return (await this.#sessions.updateMany({ where, data: revokeAt(now.getTime()) })).count;
    });
  }

  /**
   * One conditional UPDATE on id, owner and liveness. No row changed means "not one of theirs,
   * or over", except where the engine counts only rows whose value changed: renaming to the same
   * name is then settled by a re-read.
   */
  renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean> {
    return this.#guard('renameSession', async () => {
      const nowMs = now.getTime();
      if ((await this.#sessions.updateMany({ where: { id, ...activeOf(userId, nowMs) }, data: { name } })).count > 0) return true;
      const row = await this.#sessions.findUnique({ where: { id } });
      return row !== null && row.userId === userId && isActiveModelRow(row, nowMs) && row.name === name;
    });
  }

  /**
   * A step-up: one conditional UPDATE on id, owner and liveness sets `auth_time`, `amr` and `acr`
   * together (one statement: atomic). Where the engine counts only changed rows, writing the
   * very values it holds is settled by a re-read, as for a rename.
   */
  /** Binds an active, unbound session to a browser's DBSC key: one conditional UPDATE (of two racing registrations exactly one matches). */
  bindDeviceKey(input: BindDeviceKeyInput): Promise<boolean> {
    return this.#guard('bindDeviceKey', async () => {
      const where = { id: input.sessionId, deviceBoundKey: null, ...activeOf(input.userId, input.now.getTime()) };
      return (await this.#sessions.updateMany({ where, data: { deviceBoundKey: input.publicKey } })).count > 0;
    });
  }

  recordStepUp(input: StepUpInput): Promise<boolean> {
    return this.#guard('recordStepUp', async () => {
      const nowMs = input.now.getTime();
      const data = { authTime: input.authTime.getTime(), amr: JSON.stringify(input.amr), acr: input.acr };
      const where = { id: input.sessionId, ...activeOf(input.userId, nowMs) };
      if ((await this.#sessions.updateMany({ where, data })).count > 0) return true;
      const row = await this.#sessions.findUnique({ where: { id: input.sessionId } });
      return (
        row !== null &&
        row.userId === input.userId &&
        isActiveModelRow(row, nowMs) &&
        Number(row.authTime) === data.authTime &&
        row.amr === data.amr &&
        (row.acr ?? null) === data.acr
      );
    });
  }

  /** Never revives a revoked row, never moves activity backwards. */
  touchSession(id: string, now: Date): Promise<void> {
    return this.#guard('touchSession', async () => {
      const ms = now.getTime();
      await this.#sessions.updateMany({ where: { id, expiredAt: null, lastActivityAt: { lt: ms } }, data: { lastActivityAt: ms } });
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
   * column, and on MySQL/MariaDB the compared text columns have a binary collation. Rejects
   * with `StoreSchemaError` (or its `StoreCollationError`), or with `StoreUnavailableError` when
   * the database cannot be asked.
   */
  checkSchema(): Promise<void> {
    const { client, sql, names, plain } = this.#ctx;
    return this.#guard('checkSchema', async () => {
      const mysql = sql.provider === 'mysql';
      // The model's own table, as its @@map names it: does it answer at all?
      const modelAnswers = await client.sessauthSession.findUnique({ where: { id: '' } }).then(
        () => true,
        () => false,
      );
      await verifySchema(client, sql.quote, [
        ['session', names.session, plain.session],
        ...(mysql ? [['userLock', names.userLock, plain.userLock] as const] : []),
        ...(this.#ctx.activity ? [['activity', names.activity, plain.activity] as const] : []),
        ...(this.#ctx.securityEventOutbox ? [['securityEvent', names.securityEvent, plain.securityEvent] as const] : []),
      ]).catch((error: unknown) => {
        const lost = error instanceof StoreSchemaError && error.problems.some((p) => p.table === plain.session && p.missingColumns.length === 0);
        throw lost && modelAnswers ? mappedElsewhere(error.problems, plain.session) : error;
      });
      const wrong = await sql.nonBinaryCollation?.(client, [
        [plain.session, ['id', 'user_id', 'refresh_jti', 'security_stamp']],
        [plain.userLock, ['user_id']],
      ]);
      if (wrong) throw new StoreCollationError(wrong.table, wrong.column);
    });
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }
}

/** Same as `new PrismaSessionStore(prisma, options)`. */
export function createPrismaStore(prisma: SessauthPrismaClient, options: PrismaStoreOptions): PrismaSessionStore {
  return new PrismaSessionStore(prisma, options);
}
